/// How a path that cannot be shown as it is gets shown: in the quoting of
/// bash's `$'...'` (as `printf %q` and GNU `ls` write names), so that a
/// reader can tell every name apart, undo the escapes, or paste the name
/// into a shell. Inside the quotes a backslash is `\\`, a quote `\'`, a
/// line feed, carriage return, tab and escape `\n`, `\r`, `\t`, `\e`, and
/// any other control character (C0, DEL, C1) or byte that is not part of
/// valid UTF-8 `\xHH`, byte by byte. A name that starts with `$'` is always
/// quoted, so that no plain name reads as a quoted one.
extension InputPath {
    /// The path as it is, unless it holds bytes that are not UTF-8, control
    /// characters (unless `keepingControlCharacters`: CSV quotes line breaks
    /// itself) or starts with `$'`; then `$'...'` with escapes.
    public func escaped(keepingControlCharacters: Bool) -> String {
        if let text = string, !text.hasPrefix("$'"),
           keepingControlCharacters || !text.unicodeScalars.contains(where: Self.isControl) {
            return text
        }
        var out = "$'"
        var rest = bytes[...]
        while !rest.isEmpty {
            let length = Self.scalarLength(at: rest)
            guard length > 0, let scalar = String(validating: rest.prefix(length), as: UTF8.self)?.unicodeScalars.first else {
                out += Self.hex(rest.first!)
                rest = rest.dropFirst()
                continue
            }
            rest = rest.dropFirst(length)
            switch scalar {
            case "\\": out += "\\\\"
            case "'": out += "\\'"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{1B}": out += "\\e"
            case _ where Self.isControl(scalar): out += String(scalar).utf8.map(Self.hex).joined()
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "'"
    }

    /// C0 controls, DEL and C1 controls: what a terminal may act on.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// "\xE9"
    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "\\x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
    }

    /// How many bytes the UTF-8 sequence at the start of `bytes` takes, by
    /// its lead byte; 0 for a byte that cannot lead one (checked by decoding).
    private static func scalarLength(at bytes: ArraySlice<UInt8>) -> Int {
        let lead = bytes.first!
        let length: Int
        switch lead {
        case 0x00...0x7F: length = 1
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return 0
        }
        return bytes.count >= length ? length : 0
    }
}
