/// Decodes a picture in any format digits reads (PNG, JPEG, PNM) into
/// 8-bit greyscale, 0 = black: the one entry point for files and bytes.
///
/// The format is told from the first bytes, never from the file name
/// (ImageFormat); each has its decoder (PNGDecoder, JPEGDecoder,
/// PNMDecoder). Files recognizably in another format (GIF, WebP, HEIC,
/// AVIF, TIFF, BMP, PDF, SVG, ...) are refused with the format's name and
/// a command that converts them (UnsupportedFormat).
///
/// The EXIF orientation of a JPEG (APP1 segment) or a PNG (eXIf chunk) is
/// applied, as phone cameras store pictures sideways and say so there, and
/// as Pillow's `ImageOps.exif_transpose` does; `applyOrientation: false`
/// gives the pixels as stored. Broken EXIF data means no orientation, never
/// an error.
public struct ImageDecoder: Sendable {
    /// Images with more pixels than this are refused once their header is
    /// read, before any buffer of that size is allocated.
    public var maxPixels: Int
    /// Files (and standard input) longer than this are refused.
    public var maxBytes: Int
    /// JPEG only: a picture whose longer side exceeds this is decoded at
    /// 1/2, 1/4 or 1/8 size in the DCT domain, the smallest that keeps the
    /// longer side at least `maxSide` (JPEGScale); nil decodes at full size.
    public var maxSide: Int?
    /// Whether to turn the picture as its EXIF Orientation tag says.
    public var applyOrientation: Bool
    /// Where decodes reserve their buffers' bytes (DecodeMemoryBudget):
    /// the process's shared budget unless a test gives another.
    var memoryBudget = DecodeMemoryBudget.shared

    /// A decoder with these limits (by default 64 megapixels, 256 MiB, full size,
    /// EXIF orientation applied); nothing is checked until a picture is decoded.
    public init(maxPixels: Int = PNGDecoder.defaultMaxPixels, maxBytes: Int = PNGDecoder.defaultMaxBytes,
                maxSide: Int? = nil, applyOrientation: Bool = true) {
        self.maxPixels = maxPixels
        self.maxBytes = maxBytes
        self.maxSide = maxSide
        self.applyOrientation = applyOrientation
    }

    /// The decoder for classification: the preprocessing looks at pictures
    /// at most `Preprocessor.analysisSide` (512) pixels on their longer side,
    /// so a large JPEG is decoded at the reduced size that still covers that
    /// (a 4000x3000 photo at 1000x750), several times faster.
    public static let forClassification = ImageDecoder(maxSide: Preprocessor.analysisSide)

    /// Decodes the file at `path`; "-" reads standard input.
    /// Errors carry `path` as their subject (as InputPath shows it).
    public func decode(fileAtPath path: String) throws(DigitError) -> GrayImage {
        try decode(file: InputPath(path))
    }

    /// Decodes the file at `path`, given as bytes; "-" reads standard input.
    /// Only a regular file is read. Errors carry `path` as shown
    /// (InputPath.description) as their subject.
    /// Standard input must hold one picture: several back to back (`cat
    /// a.png b.png |`) are refused rather than all but the first ignored.
    public func decode(file path: InputPath) throws(DigitError) -> GrayImage {
        try InputReader.decodeFile(at: path, maxBytes: maxBytes) { (bytes) throws(DigitError) in
            if path.isStandardInput, let second = StreamedImageExtent.secondImageOffset(in: bytes) {
                throw DigitError(.invalidImage, "holds more than one image (the second starts at byte \(second)); one is read here")
            }
            return try decode(bytes: bytes)
        }
    }

    /// Decodes an encoded picture held in memory.
    public func decode(bytes: [UInt8]) throws(DigitError) -> GrayImage {
        guard let format = ImageFormat.detect(bytes.prefix(ImageFormat.signatureLength)) else {
            throw Self.unreadable(bytes)
        }
        let stored: GrayImage
        switch format {
        case .png:
            var png = PNGDecoder(maxPixels: maxPixels, maxBytes: maxBytes)
            png.memoryBudget = memoryBudget
            stored = try png.decode(bytes: bytes)
        case .jpeg:
            var jpeg = JPEGDecoder(maxPixels: maxPixels, maxSide: maxSide)
            jpeg.memoryBudget = memoryBudget
            stored = try jpeg.decode(bytes: bytes)
        case .pnm: stored = try PNMDecoder(maxPixels: maxPixels).decode(bytes: bytes)
        }
        guard applyOrientation, let exif = ExifLocator.tiffBlock(in: bytes, format: format) else { return stored }
        return ExifReader.orientation(tiff: exif).apply(to: stored)
    }

    /// Why `bytes`, in no format digits reads, are refused: empty, cut off
    /// inside a signature, another format named, or unknown.
    static func unreadable(_ bytes: [UInt8]) -> DigitError {
        if bytes.isEmpty { return DigitError(.invalidImage, "empty file") }
        if let format = ImageFormat.cutOffSignature(bytes) {
            return DigitError(.invalidImage, "truncated \(format.rawValue) (\(bytes.count) byte\(bytes.count == 1 ? "" : "s"))")
        }
        if let other = UnsupportedFormat.identify(bytes) { return DigitError(.invalidImage, other.message) }
        return DigitError(.invalidImage, "not an image digits can read (PNG, JPEG or PNM)")
    }
}
