/// The image formats DigitKit decodes, told apart by their first bytes
/// (never by the file name).
public enum ImageFormat: String, Sendable, CaseIterable {
    /// PNG, any colour type and bit depth (PNGDecoder, with libpng).
    case png = "PNG"
    /// JPEG, baseline, extended or progressive (JPEGDecoder, with libjpeg-turbo).
    case jpeg = "JPEG"
    /// Netpbm's PBM, PGM and PPM (P1-P6).
    case pnm = "PNM"

    /// How many leading bytes `detect` needs to tell every format apart.
    public static let signatureLength = 8

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// SOI (FF D8) and the FF that starts the marker after it.
    static let jpegSignature: [UInt8] = [0xFF, 0xD8, 0xFF]

    /// The format whose signature `head` starts with, or nil.
    public static func detect<Bytes: Collection>(_ head: Bytes) -> ImageFormat? where Bytes.Element == UInt8 {
        if head.starts(with: pngSignature) { return .png }
        if head.starts(with: jpegSignature) { return .jpeg }
        if isPNMMagic(head) { return .pnm }
        return nil
    }

    /// The format whose signature `bytes` (a whole input) is a proper
    /// beginning of: a file cut off inside its signature.
    static func cutOffSignature<Bytes: Collection>(_ bytes: Bytes) -> ImageFormat? where Bytes.Element == UInt8 {
        guard !bytes.isEmpty else { return nil }
        if bytes.count < pngSignature.count && pngSignature.starts(with: bytes) { return .png }
        if bytes.count < jpegSignature.count && jpegSignature.starts(with: bytes) { return .jpeg }
        return nil
    }

    /// "P1" to "P6", whitespace or a comment, then (as far as `head` goes)
    /// whitespace up to a digit or a comment, as a Netpbm header starts:
    /// text that merely begins with "P2 " stays out.
    private static func isPNMMagic<Bytes: Collection>(_ head: Bytes) -> Bool where Bytes.Element == UInt8 {
        var bytes = head.makeIterator()
        guard bytes.next() == UInt8(ascii: "P"),
              let kind = bytes.next(), (UInt8(ascii: "1")...UInt8(ascii: "6")).contains(kind),
              let separator = bytes.next(), PNMHeader.isWhitespace(separator) || separator == UInt8(ascii: "#")
        else { return false }
        if separator == UInt8(ascii: "#") { return true }
        while let byte = bytes.next() {
            if PNMHeader.isWhitespace(byte) { continue }
            return PNMScanner.isDigit(byte) || byte == UInt8(ascii: "#")
        }
        return true
    }
}
