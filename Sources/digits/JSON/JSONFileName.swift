import DigitKit
import Foundation

/// How `--json` names a file: "file" holds the path as given when it is
/// UTF-8 (JSON escapes its control characters); a path that is not UTF-8
/// has no exact JSON string, so "file" then shows it escaped as text does
/// (`$'caf\xE9.png'`) and "file_base64" holds its exact bytes, for a
/// program to open it by.
struct JSONFileName: ExpressibleByStringLiteral {
    let file: String
    let base64: String?

    init(_ path: InputPath) {
        file = path.string ?? path.description
        base64 = path.string == nil ? Data(path.bytes).base64EncodedString() : nil
    }

    /// A name that is text: "file" alone.
    init(stringLiteral name: String) {
        file = name
        base64 = nil
    }
}
