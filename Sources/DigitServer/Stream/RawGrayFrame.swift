import DigitKit

/// A raw 8-bit grey frame as a WebSocket client may send it: the four ASCII
/// bytes "GRAY", width and height as little-endian UInt16, then width x
/// height bytes row by row (no decoding to pay for a camera's frames).
@_spi(Fuzzing) public enum RawGrayFrame {
    static let magic: [UInt8] = Array("GRAY".utf8)
    static let headerSize = 8

    /// Whether `bytes` start as a raw grey frame.
    public static func isRaw(_ bytes: [UInt8]) -> Bool {
        bytes.count >= magic.count && Array(bytes.prefix(magic.count)) == magic
    }

    /// The picture a raw frame holds; its size must match the header exactly.
    public static func image(_ bytes: [UInt8]) throws(DigitError) -> GrayImage {
        guard bytes.count >= headerSize else {
            throw DigitError(.invalidImage, "a raw GRAY frame needs an 8-byte header, got \(bytes.count) bytes")
        }
        let width = Int(bytes[4]) | Int(bytes[5]) << 8
        let height = Int(bytes[6]) | Int(bytes[7]) << 8
        guard width > 0, height > 0 else {
            throw DigitError(.invalidImage, "a raw GRAY frame of \(width)x\(height) pixels holds no picture")
        }
        let expected = width * height
        guard bytes.count - headerSize == expected else {
            throw DigitError(.invalidImage, "a raw GRAY frame of \(width)x\(height) needs \(expected) pixel bytes, got \(bytes.count - headerSize)")
        }
        do {
            return try GrayImage(width: width, height: height, pixels: Array(bytes[headerSize...]))
        } catch {
            throw DigitError(.invalidImage, "\(error)")
        }
    }
}
