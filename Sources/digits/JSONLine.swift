import Foundation

/// Builds one JSON object on one line with its keys in the order they are
/// added, since the `--json` output is a documented, stable contract.
struct JSONLine {
    private var fields: [String] = []

    mutating func add(_ key: String, _ value: String) { fields.append("\(Self.quoted(key)): \(Self.quoted(value))") }
    mutating func add(_ key: String, _ value: Int) { fields.append("\(Self.quoted(key)): \(value)") }
    mutating func add(_ key: String, _ value: Double) { fields.append("\(Self.quoted(key)): \(Self.number(value))") }
    mutating func add(_ key: String, _ values: [Double]) {
        fields.append("\(Self.quoted(key)): [\(values.map(Self.number).joined(separator: ", "))]")
    }
    mutating func add(_ key: String, _ value: Bool) { fields.append("\(Self.quoted(key)): \(value)") }
    mutating func addNull(_ key: String) { fields.append("\(Self.quoted(key)): null") }
    /// Adds a value that is already JSON text (an array of objects, for example).
    mutating func addRaw(_ key: String, _ json: String) { fields.append("\(Self.quoted(key)): \(json)") }

    var text: String { "{" + fields.joined(separator: ", ") + "}" }

    /// The shortest text that reads back as the same float32: the model
    /// computes in float32, so this is exact, and it never rounds a
    /// 0.99999994 up to a certain-looking 1.
    static func number(_ value: Double) -> String {
        let single = Float(value)
        guard single.isFinite else { return "null" }
        return single.description
    }

    static func quoted(_ text: String) -> String {
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
