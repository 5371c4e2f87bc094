import Foundation

/// Diagnostics go to standard error, so that standard output carries only results.
///
/// Written with write(2), and a diagnostic that cannot be written (standard
/// error closed, a full disk, a reader gone) is dropped: it must never cost
/// a result or change the exit status. FileHandle's write traps on such
/// errors. A closed pipe does not end the process either (SIGPIPE is held
/// off while writing), as results may still be going to standard output.
enum StandardError {
    static func write(_ line: String) {
        writeRaw(line.hasSuffix("\n") ? line : line + "\n")
    }

    /// Text without a newline added (for the progress bar).
    static func writeRaw(_ text: String) {
        let bytes = Array(text.utf8)
        SignalHold.withoutSIGPIPE {
            var written = 0
            while written < bytes.count {
                let count = bytes.withUnsafeBytes { Foundation.write(STDERR_FILENO, $0.baseAddress! + written, $0.count - written) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { return }
                written += count
            }
        }
    }

    /// "digits: <subject>: <cause>", the one-line form of every error.
    static func report(_ description: String) {
        write("digits: \(description)")
    }
}
