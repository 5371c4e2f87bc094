/// The image formats DigitKit decodes, told apart by their first bytes
/// (never by the file name).
public enum ImageFormat: String, Sendable, CaseIterable {
    case png = "PNG"

    /// How many leading bytes `detect` needs to tell every format apart.
    public static let signatureLength = 8

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The format whose signature `head` starts with, or nil.
    public static func detect<Bytes: Collection>(_ head: Bytes) -> ImageFormat? where Bytes.Element == UInt8 {
        head.starts(with: pngSignature) ? .png : nil
    }
}
