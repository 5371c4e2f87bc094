import Foundation

/// How `--json` output spells scalars: the one place that decides, used by
/// JSONLineEncoder (and by the CSV rows, which print the same numbers).
package enum JSONText {
    /// The shortest text that reads back as the same float32: the model
    /// computes in float32, so this is exact, and it never rounds a
    /// 0.99999994 up to a certain-looking 1. Not finite: null.
    package static func number(_ value: Double) -> String {
        number(Float(value))
    }

    /// A float32 as the shortest text that reads back as itself; not finite: null.
    package static func number(_ value: Float) -> String {
        value.isFinite ? value.description : "null"
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped.
    package static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// A number written with at most `places` decimals and no trailing zeros
/// ("3.1", "412.5", "0"), for measured times and rates, where float32's
/// shortest form would claim a precision the measurement does not have.
package struct FixedDecimal: Encodable {
    package let value: Double
    package let places: Int

    package init(value: Double, places: Int) {
        self.value = value
        self.places = places
    }

    package var text: String {
        guard value.isFinite else { return "null" }
        var text = String(format: "%.\(places)f", value)
        while text.contains("."), text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// Outside JSONLineEncoder (which writes `text` itself): the plain number.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}
