import DigitKit
import Foundation

/// How `--json` names a file: "file" holds the path as given when it is
/// UTF-8 (JSON escapes its control characters); a path that is not UTF-8
/// has no exact JSON string, so "file" then shows it escaped as text does
/// (`$'caf\xE9.png'`) and "file_base64" holds its exact bytes, for a
/// program to open it by.
package struct JSONFileName: ExpressibleByStringLiteral, Sendable {
    package let file: String
    package let base64: String?

    package init(_ path: InputPath) {
        file = path.string ?? path.description
        base64 = path.string == nil ? Data(path.bytes).base64EncodedString() : nil
    }

    /// A name that is text: "file" alone.
    package init(stringLiteral name: String) {
        file = name
        base64 = nil
    }
}
