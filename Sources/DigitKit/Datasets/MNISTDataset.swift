/// MNIST-format images and labels, from a pair of IDX files (gzipped or raw),
/// as LeCun, Cortes and Burges distribute them.
public struct MNISTDataset: Sendable {
    /// Number of images, and of labels.
    public let count: Int
    /// Height of each image in pixels (28 for MNIST).
    public let rows: Int
    /// Width of each image in pixels (28 for MNIST).
    public let columns: Int
    /// count x rows x columns bytes, image after image, 0 = background.
    public let pixels: [UInt8]
    /// count labels.
    public let labels: [UInt8]

    /// Loads and cross-checks an images file (magic 0x803) and a labels file (magic 0x801).
    public init(imagesPath: String, labelsPath: String) throws(DigitError) {
        let images = try IDXFile.read(path: imagesPath, dimensions: 3)
        let labels = try IDXFile.read(path: labelsPath, dimensions: 1)
        guard images.shape[0] == labels.shape[0] else {
            throw DigitError(.invalidDataset, "\(images.shape[0]) images but \(labels.shape[0]) labels in \(labelsPath)", subject: imagesPath)
        }
        if let bad = labels.bytes.firstIndex(where: { $0 > 9 }) {
            throw DigitError(.invalidDataset, "label \(labels.bytes[bad]) at index \(bad) is not a digit", subject: labelsPath)
        }
        count = images.shape[0]
        rows = images.shape[1]
        columns = images.shape[2]
        pixels = images.bytes
        self.labels = labels.bytes
    }

    /// Image `index` as a greyscale image (MNIST: light digit on black).
    public func image(at index: Int) -> GrayImage {
        let size = rows * columns
        return try! GrayImage(width: columns, height: rows, pixels: Array(pixels[(index * size)..<((index + 1) * size)]))
    }
}
