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
    /// bytes of the next argument that decodes to it (or of the part after
    /// "=" of an `--option=value` argument).
    static func paths(_ values: [String]) -> [InputPath] {
        var next = 0
        return values.map { value in
            guard value.unicodeScalars.contains("\u{FFFD}") else { return InputPath(value) }
            for index in all.indices.dropFirst(next) {
                guard let bytes = Self.value(all[index], decodingTo: value) else { continue }
                next = index + 1
                return InputPath(bytes: bytes)
            }
            return InputPath(value)
        }
    }

    /// `argument`, or its part after "=" when it is `--option=value`, if that decodes to `value`.
    private static func value(_ argument: [UInt8], decodingTo value: String) -> ArraySlice<UInt8>? {
        if String(decoding: argument, as: UTF8.self) == value { return argument[...] }
        guard argument.starts(with: "--".utf8), let equals = argument.firstIndex(of: UInt8(ascii: "=")) else { return nil }
        let rest = argument[(equals + 1)...]
        return String(decoding: rest, as: UTF8.self) == value ? rest : nil
    }

    /// The path of one parsed value.
    static func path(_ value: String) -> InputPath {
        paths([value])[0]
    }
}
