import Foundation

/// A `digits` process fed by the test as it runs (frames at a pace, then
/// an interrupt), with its output collected in the background.
package final class RunningCommand: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private let group = DispatchGroup()
    private let lock = NSCondition()
    private var outData = Data()
    private var errData = Data()

    package init(_ arguments: [String], environment: [String: String]? = nil) throws {
        process.executableURL = URL(fileURLWithPath: CommandRunner.digits)
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        signal(SIGPIPE, SIG_IGN)
        try process.run()
        for (pipe, isOutput) in [(output, true), (errors, false)] {
            group.enter()
            // A thread of its own, not the global queue (see CommandRunner.run).
            Thread {
                // Read as it comes, so that the test can wait for a line.
                while true {
                    let chunk = pipe.fileHandleForReading.availableData
                    self.lock.lock()
                    if isOutput { self.outData.append(chunk) } else { self.errData.append(chunk) }
                    self.lock.broadcast()
                    self.lock.unlock()
                    if chunk.isEmpty { break }
                }
                self.group.leave()
            }.start()
        }
    }

    /// Waits until standard output holds `text`, at most `seconds`; whether it did.
    package func waitForOutput(containing text: String, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        lock.lock()
        defer { lock.unlock() }
        while !String(decoding: outData, as: UTF8.self).contains(text) {
            if !lock.wait(until: deadline) { return false }
        }
        return true
    }

    /// Writes to the process's standard input; false once it stopped reading.
    @discardableResult
    package func write(_ bytes: [UInt8]) -> Bool {
        (try? input.fileHandleForWriting.write(contentsOf: Data(bytes))) != nil
    }

    package func closeInput() { try? input.fileHandleForWriting.close() }

    /// Sends SIGINT, as Ctrl-C would.
    package func interrupt() { process.interrupt() }

    /// Sends SIGTERM, as a service manager stopping it would.
    package func terminate() { process.terminate() }

    /// Whether the process has not ended yet.
    package var isRunning: Bool { process.isRunning }

    /// The most address space the process has had mapped so far (VmPeak in
    /// /proc/PID/status), in KiB; nil once it has ended or where /proc has none.
    package var peakAddressSpace: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmPeak:") }) else { return nil }
        return line.dropFirst("VmPeak:".count).split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) }
    }

    /// How many of its threads carry the program's own name: the main thread and
    /// those started without a name of their own (by libtorch or OpenBLAS);
    /// nil once it has ended.
    package var unnamedThreadCount: Int? {
        let tasks = "/proc/\(process.processIdentifier)/task"
        guard let name = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/comm", encoding: .utf8),
              let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks) else { return nil }
        return threads.filter { (try? String(contentsOfFile: "\(tasks)/\($0)/comm", encoding: .utf8)) == name }.count
    }

    /// Whether it has a shared library whose file name begins with `prefix` mapped; nil once it has ended.
    package func mapsLibrary(named prefix: String) -> Bool? {
        // Read to the end: String(contentsOfFile:) stops at the first page of this /proc file.
        guard let bytes = FileHandle(forReadingAtPath: "/proc/\(process.processIdentifier)/maps")?.readDataToEndOfFile(),
              !bytes.isEmpty else { return nil }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n")
            .contains { $0.split(separator: "/").last?.hasPrefix(prefix) == true }
    }

    /// What standard output holds so far.
    package var outputSoFar: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: outData, as: UTF8.self)
    }

    /// Waits for the process to end.
    package func finish() -> CommandResult {
        group.wait()
        process.waitUntilExit()
        closeInput()
        lock.lock()
        defer { lock.unlock() }
        return CommandResult(status: process.terminationStatus,
                             stdout: String(decoding: outData, as: UTF8.self),
                             stderr: String(decoding: errData, as: UTF8.self))
    }
}
