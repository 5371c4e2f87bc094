import Foundation

/// Diagnostics go to standard error, so that standard output carries only results.
enum StandardError {
    static func write(_ line: String) {
        FileHandle.standardError.write(Data((line.hasSuffix("\n") ? line : line + "\n").utf8))
    }

    /// Text without a newline added (for the progress bar).
    static func writeRaw(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// "digits: <subject>: <cause>", the one-line form of every error.
    static func report(_ description: String) {
        write("digits: \(description)")
    }
}
