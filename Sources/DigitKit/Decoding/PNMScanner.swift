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

    static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
}
