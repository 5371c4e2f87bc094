import DigitKit
import Foundation

/// The command line as the system gave it: bytes. CommandLine.arguments,
/// which ArgumentParser parses, decodes them as UTF-8 and replaces what is
/// not (U+FFFD), so a file named `caf\xE9.png` in Latin-1 would be looked
/// for under another name; its parsed value is matched back to its bytes here.
enum RawArguments {
    /// argv[1...], as bytes.
    static let all: [[UInt8]] = (1..<Int(CommandLine.argc)).map { index in
        guard let argument = CommandLine.unsafeArgv[index] else { return [] }
        return Array(UnsafeBufferPointer(start: argument, count: strlen(argument))).map { UInt8(bitPattern: $0) }
    }

    /// The paths of parsed `values`, in the order they were given: a value
    /// that is exact UTF-8 as it is; one with a replacement character, the
    /// bytes of the next argument that decodes to it.
    static func paths(_ values: [String]) -> [InputPath] {
        var next = 0
        return values.map { value in
            guard value.unicodeScalars.contains("\u{FFFD}") else { return InputPath(value) }
            guard let found = all[next...].firstIndex(where: { String(decoding: $0, as: UTF8.self) == value }) else {
                return InputPath(value)
            }
            next = found + 1
            return InputPath(bytes: all[found])
        }
    }

    /// The path of one parsed value.
    static func path(_ value: String) -> InputPath {
        paths([value])[0]
    }
}
