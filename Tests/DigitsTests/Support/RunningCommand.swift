import Foundation

/// A `digits` process fed by the test as it runs (frames at a pace, then
/// an interrupt), with its output collected in the background.
final class RunningCommand: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private let group = DispatchGroup()
    private var outData = Data()
    private var errData = Data()

    init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: CommandRunner.digits)
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        signal(SIGPIPE, SIG_IGN)
        try process.run()
        for (pipe, isOutput) in [(output, true), (errors, false)] {
            group.enter()
            DispatchQueue.global().async {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                if isOutput { self.outData = data } else { self.errData = data }
                self.group.leave()
            }
        }
    }

    /// Writes to the process's standard input; false once it stopped reading.
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        (try? input.fileHandleForWriting.write(contentsOf: Data(bytes))) != nil
    }

    func closeInput() { try? input.fileHandleForWriting.close() }

    /// Sends SIGINT, as Ctrl-C would.
    func interrupt() { process.interrupt() }

    /// Waits for the process to end.
    func finish() -> CommandResult {
        group.wait()
        process.waitUntilExit()
        closeInput()
        return CommandResult(status: process.terminationStatus,
                             stdout: String(decoding: outData, as: UTF8.self),
                             stderr: String(decoding: errData, as: UTF8.self))
    }
}
