import Foundation

/// Runs a program to completion and collects what it printed, for the
/// end-to-end tests of the built `digits` binary.
package struct CommandResult {
    package let status: Int32
    package let stdout: String
    package let stderr: String

    package var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
    package var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
}

package enum CommandRunner {
    /// The `digits` executable built beside the test bundle.
    package static let digits: String = {
        let folder = Bundle.main.executableURL!.deletingLastPathComponent()
        return folder.appendingPathComponent("digits").path
    }()

    package static func run(_ executable: String, _ arguments: [String], stdin: Data? = nil,
                            environment: [String: String]? = nil, in directory: String? = nil) throws -> CommandResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        // A child may stop reading its input early (digits refuses oversized
        // input at its limit); writing on must fail with EPIPE, not kill the tests.
        signal(SIGPIPE, SIG_IGN)
        try process.run()
        // Read both pipes concurrently so a chatty child cannot block on a full pipe.
        // A thread of its own, not the global queue: hundreds of readers blocked
        // there at once starved other tests' blocks for seconds.
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        Thread {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }.start()
        if let stdin { try? input.fileHandleForWriting.write(contentsOf: stdin) }
        try? input.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return CommandResult(status: process.terminationStatus,
                             stdout: String(decoding: outData, as: UTF8.self),
                             stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Runs the built `digits` with `arguments`.
    package static func digits(_ arguments: [String], stdin: Data? = nil, environment: [String: String]? = nil,
                               in directory: String? = nil) throws -> CommandResult {
        try run(digits, arguments, stdin: stdin, environment: environment, in: directory)
    }

    /// sha256sum's hex digest of a file.
    package static func sha256(ofFileAt path: String) throws -> String {
        let result = try run("/usr/bin/env", ["sha256sum", path])
        return String(result.stdout.prefix(64))
    }
}
