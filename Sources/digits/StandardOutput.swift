import Foundation

/// Where results go: standard output, written with write(2) and checked,
/// so that a full disk or a closed pipe stops the run with an error instead
/// of losing results in silence. A regular file is written in 64 KiB blocks,
/// and at least at the end of every batch (classify and read flush there),
/// so that a process killed mid-run leaves every finished batch in the
/// file; anything else (a pipe, a terminal) a line at a time, so that
/// whoever reads sees each result as it comes.
///
/// A closed pipe normally ends the process quietly through SIGPIPE, as for
/// any filter (`digits classify ... | head -1`); only where SIGPIPE is
/// ignored does the write fail with EPIPE, and then that is reported.
final class StandardOutput {
    nonisolated(unsafe) static let shared = StandardOutput()

    /// A failed write: "standard output: <cause>", or "standard output is
    /// closed" (`>&-`, see ClosedStandardStreams).
    struct WriteFailure: Error, CustomStringConvertible {
        let code: Int32
        var description: String {
            code == EBADF ? "standard output is closed" : "standard output: \(String(cString: strerror(code)))"
        }
    }

    private var buffer: [UInt8] = []
    /// Whether each line is written at once. By default only where someone
    /// reads as it comes (not a regular file); a command whose lines are
    /// events in time (`stream`) sets it for files too.
    var flushesEachLine: Bool
    private static let blockSize = 1 << 16

    private init() {
        flushesEachLine = !Self.isRegularFile(STDOUT_FILENO)
        buffer.reserveCapacity(Self.blockSize)
    }

    /// Whether `descriptor` is a regular file (fstat), rather than a pipe, a
    /// terminal or a device.
    static func isRegularFile(_ descriptor: Int32) -> Bool {
        var info = stat()
        return fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Writes `text` and a newline.
    func line(_ text: String) throws(WriteFailure) {
        buffer.append(contentsOf: text.utf8)
        buffer.append(UInt8(ascii: "\n"))
        if flushesEachLine || buffer.count >= Self.blockSize { try flush() }
    }

    /// Writes `text` as it is (its own line breaks included).
    func text(_ text: String) throws(WriteFailure) {
        buffer.append(contentsOf: text.utf8)
        if flushesEachLine || buffer.count >= Self.blockSize { try flush() }
    }

    /// Writes out everything buffered.
    func flush() throws(WriteFailure) {
        var written = 0
        defer { buffer.removeAll(keepingCapacity: true) }
        while written < buffer.count {
            let count = buffer.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                throw WriteFailure(code: errno)
            }
            written += count
        }
    }
}

extension StandardOutput {
    /// Writes `text` and flushes it, for the commands that print one block;
    /// a failed write is reported on stderr and exits with status 1.
    static func writeAll(_ text: String) throws {
        do {
            try shared.text(text)
            try shared.flush()
        } catch {
            StandardError.report(error.description)
            throw ExitStatus.inputFailed.exitCode
        }
    }
}
