import Foundation
import Testing
import TestSupport

/// Results written to a regular file reach it at the end of every batch: a
/// process that dies later (a picture that crashes it, SIGKILL) leaves the
/// finished batches in the file, not a block buffer lost with it.
@Suite("results in a file survive a killed process")
struct BatchFlushTests {
    static let examples = Fixtures.repositoryRoot.appendingPathComponent("Examples").path
    static let pictures = ["seven.png", "two.png", "four-large.png", "three-on-paper.png", "seven.png"]

    /// Runs `digits arguments` with standard output a regular file, feeds it
    /// the pictures on standard input and keeps the pipe open (the process
    /// waits for more); returns the lines in the file once there are as many
    /// as pictures (at most 60 s), then kills the process with SIGKILL.
    static func linesBeforeKill(_ arguments: [String]) throws -> [Substring] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digits-flush-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out.txt")
        try #require(FileManager.default.createFile(atPath: out.path, contents: nil))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandRunner.digits)
        process.arguments = arguments
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = FileHandle.nullDevice
        signal(SIGPIPE, SIG_IGN)
        try process.run()
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            try? input.fileHandleForWriting.close()
        }
        for name in pictures {
            try input.fileHandleForWriting.write(contentsOf: Data(contentsOf: URL(fileURLWithPath: "\(examples)/\(name)")))
        }
        let deadline = Date().addingTimeInterval(60)
        var lines: [Substring] = []
        while Date() < deadline && process.isRunning {
            lines = try String(contentsOf: out, encoding: .utf8).split(separator: "\n")
            if lines.count >= pictures.count { break }
            usleep(50_000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal, "digits ended before it was killed")
        return try String(contentsOf: out, encoding: .utf8).split(separator: "\n")
    }

    @Test("classify --json: every finished batch is in the file", arguments: [["--batch", "2"], ["--batch", "64"]])
    func classifyBatches(_ batch: [String]) throws {
        let lines = try Self.linesBeforeKill(["classify", "--json"] + batch + ["-"])
        #expect(lines.count == Self.pictures.count)
        for (index, (line, digit)) in zip(lines, [7, 2, 4, 3, 7]).enumerated() {
            #expect(line.hasPrefix("{\"file\": \"-\", \"index\": \(index), \"digit\": \(digit),"), "\(line)")
        }
    }

    @Test("read --json: every finished batch is in the file", arguments: [["--threads", "1"], ["--threads", "2"]])
    func readBatches(_ threads: [String]) throws {
        let lines = try Self.linesBeforeKill(["read", "--json"] + threads + ["-"])
        #expect(lines.count == Self.pictures.count)
        for (index, line) in lines.enumerated() {
            #expect(line.hasPrefix("{\"file\": \"-\", \"index\": \(index),"), "\(line)")
        }
    }
}
