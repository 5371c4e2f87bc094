/// The header of a Netpbm image (PBM, PGM or PPM): the magic number, the
/// width, the height and (except for bitmaps) the maxval, as decimal tokens
/// separated by any whitespace, with `#` comments running to the end of a
/// line anywhere between them.
///
/// Hostile-input bounds: a number token may have at most `maxDigits`
/// digits, so no value can overflow; the width and height must be 1 to
/// `Int32.max` and the maxval 1 to 65535. Every byte is read through
/// `PNMScanner`, which checks the index against the end of the data.
struct PNMHeader: Equatable, Sendable {
    enum Kind: UInt8, Sendable {
        /// P1: a bitmap, as "0" and "1" characters (1 is black).
        case plainBitmap = 1
        /// P2: grey samples as decimal text.
        case plainGray = 2
        /// P3: RGB samples as decimal text.
        case plainColor = 3
        /// P4: a bitmap, 8 pixels a byte, most significant bit first, rows padded to a byte.
        case binaryBitmap = 4
        /// P5: grey samples as bytes (big-endian pairs above maxval 255).
        case binaryGray = 5
        /// P6: RGB samples as bytes (big-endian pairs above maxval 255).
        case binaryColor = 6

        var isPlain: Bool { rawValue <= 3 }
        var isBitmap: Bool { self == .plainBitmap || self == .binaryBitmap }
        /// Samples per pixel.
        var channels: Int { self == .plainColor || self == .binaryColor ? 3 : 1 }
    }

    /// More digits than this cannot be a valid width, height or maxval.
    static let maxDigits = 10

    let kind: Kind
    let width: Int
    let height: Int
    /// The value of full intensity (1 for bitmaps).
    let maxval: Int
    /// Where the raster starts: after the single whitespace byte that ends
    /// the header of a binary file; after the last header token for a plain one.
    let rasterStart: Int

    /// Netpbm's whitespace: space, tab, line feed, vertical tab, form feed, carriage return.
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    /// Reads the header of `bytes`, which `ImageFormat.detect` has found to start with P1-P6.
    init(_ bytes: [UInt8]) throws(DigitError) {
        var scanner = PNMScanner(bytes, from: 1)
        guard let kindByte = scanner.next(), let kind = Kind(rawValue: kindByte &- UInt8(ascii: "0")) else {
            throw DigitError(.invalidImage, "not a PNM file (bad magic number)")
        }
        self.kind = kind
        width = try Self.number(&scanner, named: "width", in: 1...Int(Int32.max))
        height = try Self.number(&scanner, named: "height", in: 1...Int(Int32.max))
        maxval = kind.isBitmap ? 1 : try Self.number(&scanner, named: "maxval", in: 1...65535)
        if !kind.isPlain {
            // Exactly one whitespace byte (a comment counts as one) separates
            // the header from the raster, whose first byte may look like whitespace.
            guard let separator = scanner.next() else {
                throw DigitError(.invalidImage, "truncated PNM: the file ends before the pixel data")
            }
            if separator == UInt8(ascii: "#") { scanner.skipComment() }
        }
        rasterStart = scanner.position
    }

    /// The next decimal token, which must lie in `range`.
    private static func number(_ scanner: inout PNMScanner, named name: String, in range: ClosedRange<Int>) throws(DigitError) -> Int {
        switch scanner.decimal(maxDigits: maxDigits) {
        case .end:
            throw DigitError(.invalidImage, "truncated PNM: the file ends before the \(name)")
        case .notANumber:
            throw DigitError(.invalidImage, "corrupt PNM: the \(name) is not a number")
        case .tooManyDigits:
            throw DigitError(.invalidImage, "corrupt PNM: the \(name) has more than \(maxDigits) digits")
        case .number(let value):
            guard range.contains(value) else {
                throw DigitError(.invalidImage, "corrupt PNM: the \(name) is \(value), outside \(range.lowerBound)-\(range.upperBound)")
            }
            return value
        }
    }
}
