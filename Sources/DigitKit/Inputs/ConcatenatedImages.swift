#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// The pictures of a stream that holds several images back to back (what
/// `cat a.png b.png` or `ffmpeg -f image2pipe` writes), read one at a time
/// as the stream delivers them, each as an input named `name` with its
/// index (0, 1, ...).
///
/// Each image's extent is found from its own structure (PNG: the chunks up
/// to IEND), never by scanning for the next signature, and no image may
/// exceed `maxBytes`, which is checked before its bytes are buffered. A
/// stream that breaks (garbage where an image should start, an image cut
/// off, an unreadable descriptor) gives one failed input saying so, and ends.
public struct ConcatenatedImages: Sequence, IteratorProtocol {
    private var reader: ByteReader
    private let name: String
    private let maxBytes: Int
    private var index = 0
    private var finished = false

    /// Images from `descriptor` (0, standard input, by default), named `name`.
    public init(descriptor: Int32 = 0, name: String = "-", maxBytes: Int = PNGDecoder.defaultMaxBytes) {
        self.reader = ByteReader(descriptor: descriptor, name: name == "-" ? "standard input" : name)
        self.name = name
        self.maxBytes = maxBytes
    }

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
        let head = try reader.take(upTo: ImageFormat.signatureLength)
        if head.isEmpty {
            if index == 0 { throw DigitError(.invalidImage, "empty file") }
            return nil
        }
        guard ImageFormat.detect(head) == .png else {
            if head.count < ImageFormat.signatureLength, ImageFormat.pngSignature.starts(with: head) {
                throw DigitError(.invalidImage, "truncated PNG (\(head.count) bytes)")
            }
            if index == 0 { throw DigitError(.invalidImage, "not a PNG file (bad signature)") }
            throw DigitError(.invalidImage, "not a PNG image (bad signature) after \(index) image\(index == 1 ? "" : "s")")
        }
        return try restOfPNG(head)
    }

    /// Reads chunk after chunk up to and including IEND.
    private mutating func restOfPNG(_ signature: [UInt8]) throws(DigitError) -> [UInt8] {
        var png = signature
        while true {
            let header = try reader.take(upTo: 8)
            guard header.count == 8 else {
                throw DigitError(.invalidImage, "truncated PNG: the stream ends before the IEND chunk")
            }
            let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
            let type = header[4..<8]
            let chunk = type.allSatisfy { (65...90).contains($0) || (97...122).contains($0) }
                ? "the \(String(decoding: type, as: UTF8.self)) chunk" : "a chunk with an invalid type"
            guard length <= Int(Int32.max) else {
                throw DigitError(.invalidImage, "corrupt PNG: \(chunk) claims \(length) bytes")
            }
            guard png.count + 8 + length + 4 <= maxBytes else {
                throw DigitError(.imageTooLarge, "image is larger than the limit of \(maxBytes) bytes")
            }
            let body = try reader.take(upTo: length + 4)
            png += header
            png += body
            guard body.count == length + 4 else {
                throw DigitError(.invalidImage, "truncated PNG: the stream ends inside \(chunk)")
            }
            if type.elementsEqual("IEND".utf8) { return png }
        }
    }
}
