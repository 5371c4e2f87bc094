/// The pictures of a stream that holds several images back to back (what
/// `cat a.png b.jpg` or `ffmpeg -f image2pipe -c:v png|mjpeg|pgm` writes),
/// read one at a time as the stream delivers them, each as an input named
/// `name` with its index (0, 1, ...). PNG, JPEG and binary PNM may be mixed.
///
/// Each image's extent is found from its own structure
/// (StreamedImageExtent), and no image may exceed `maxBytes`, which is
/// checked before its bytes are buffered. A stream that breaks (garbage
/// where an image should start, an image cut off, an unreadable
/// descriptor) gives one failed input saying so, and ends.
public struct ConcatenatedImages: Sequence, IteratorProtocol {
    private var extent: StreamedImageExtent
    private let name: String
    private var index = 0
    private var finished = false

    /// Images from `descriptor` (0, standard input, by default), named `name`.
    public init(descriptor: Int32 = 0, name: String = "-", maxBytes: Int = PNGDecoder.defaultMaxBytes) {
        let reader = ByteReader(descriptor: descriptor, name: name == "-" ? "standard input" : name)
        self.extent = StreamedImageExtent(reader: reader, maxBytes: maxBytes)
        self.name = name
    }

    /// The next image's bytes, as an input named `name` with its index; a stream
    /// that breaks gives one failed input saying so. Nil after the last image.
    public mutating func next() -> ClassificationInput? {
        guard !finished else { return nil }
        do throws(DigitError) {
            guard let bytes = try nextImage() else {
                finished = true
                return nil
            }
            defer { index += 1 }
            return .bytes(bytes, name: name, indexInSource: index)
        } catch {
            finished = true
            // A stream whose very first image fails is named as a whole, as
            // a file would be ("-: empty file"); later failures by index.
            let origin = InputOrigin(name: name, indexInSource: index == 0 ? nil : index)
            return ClassificationInput(source: .failure(error), origin: origin)
        }
    }

    /// The next image's bytes; nil at the clean end of the stream.
    private mutating func nextImage() throws(DigitError) -> [UInt8]? {
        let head = try extent.reader.peek(upTo: ImageFormat.signatureLength)
        if head.isEmpty {
            if index == 0 { throw DigitError(.invalidImage, "empty file") }
            return nil
        }
        guard let format = ImageFormat.detect(head) else {
            // Enough bytes for UnsupportedFormat to name the format (RIFF, ftyp boxes).
            if index == 0 { throw ImageDecoder.unreadable(Array(try extent.reader.peek(upTo: 64))) }
            throw DigitError(.invalidImage, "not an image (PNG, JPEG or PNM) after \(index) image\(index == 1 ? "" : "s")")
        }
        return try extent.next(format)
    }
}
