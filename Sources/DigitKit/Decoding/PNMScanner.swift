/// A cursor over PNM bytes that never reads past their end.
struct PNMScanner {
    let bytes: [UInt8]
    private(set) var position: Int

    init(_ bytes: [UInt8], from position: Int) {
        self.bytes = bytes
        self.position = min(max(position, 0), bytes.count)
    }

    var isAtEnd: Bool { position >= bytes.count }
    var remaining: Int { bytes.count - position }

    func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

    mutating func advance() { if position < bytes.count { position += 1 } }

    mutating func next() -> UInt8? {
        defer { advance() }
        return peek()
    }

    /// Skips the rest of a `#` comment, up to and including the end of its line.
    mutating func skipComment() {
        while let byte = next(), byte != 0x0A, byte != 0x0D {}
    }

    /// Skips whitespace and comments up to the next token (or the end).
    mutating func skipWhitespaceAndComments() {
        while let byte = peek() {
            if PNMHeader.isWhitespace(byte) {
                advance()
            } else if byte == UInt8(ascii: "#") {
                advance()
                skipComment()
            } else {
                return
            }
        }
    }

    /// What reading one decimal token found.
    enum Token {
        case number(Int)
        /// The data ended before the token.
        case end
        /// `byte` started the token, or followed its digits, instead of a digit or whitespace.
        case notANumber(UInt8)
        /// More than `maxDigits` digits.
        case tooManyDigits
    }

    /// The next decimal token, after whitespace and comments; it must end at
    /// whitespace, a comment or the end of the data. Shared by the header
    /// and the plain (P1-P3) raster, each of which words its own errors.
    /// At most `maxDigits` (10) digits are read, so the value cannot overflow.
    mutating func decimal(maxDigits: Int) -> Token {
        skipWhitespaceAndComments()
        guard let first = peek() else { return .end }
        guard Self.isDigit(first) else { return .notANumber(first) }
        var value = 0, digits = 0
        while let byte = peek(), Self.isDigit(byte) {
            digits += 1
            guard digits <= maxDigits else { return .tooManyDigits }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            advance()
        }
        if let next = peek(), !PNMHeader.isWhitespace(next), next != UInt8(ascii: "#") { return .notANumber(next) }
        return .number(value)
    }

    static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
}
