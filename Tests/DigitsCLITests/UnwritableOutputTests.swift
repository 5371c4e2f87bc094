import Foundation
import Testing
import TestSupport

/// Standard error that cannot be written (a full disk, closed, a pipe with
/// no reader) costs nothing: the diagnostic is dropped, results are
/// complete and the exit status is the documented one. Standard output that
/// cannot be written, for help and the version too, exits with 1. Standard
/// streams closed from the start are named as closed.
@Suite("unwritable and closed standard streams")
struct UnwritableOutputTests {
    static let examples = Fixtures.repositoryRoot.appendingPathComponent("Examples").path

    /// Runs `script` with /bin/sh, $0 being the built `digits` and $1, $2, ... `arguments`.
    static func shell(_ script: String, _ arguments: [String] = []) throws -> CommandResult {
        try CommandRunner.run("/bin/sh", ["-c", script, CommandRunner.digits] + arguments)
    }

    /// A scratch folder, removed by the caller.
    static func scratchFolder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digits-unwritable-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.path
    }

    /// A good picture, one of a format digits does not read, another good one.
    static let mixedInputs = ["\(examples)/seven.png", "\(examples)/seven.gif", "\(examples)/three-on-paper.png"]

    @Test("classify with stderr on a full disk or closed: every result written, exit 1", arguments: ["2>/dev/full", "2>&-"])
    func stderrUnwritable(_ redirection: String) throws {
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = "\(folder)/out.json"
        let result = try Self.shell("\"$0\" classify --json \"$2\" \"$3\" \"$4\" > \"$1\" \(redirection)", [out] + Self.mixedInputs)
        #expect(result.status == 1, "\(result.stderr)")
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[1].contains("\"error\""))
        #expect(lines[2].contains("\"digit\": 3"))
    }

    @Test("a usage error with stderr closed exits with 2")
    func usageErrorStderrClosed() throws {
        let result = try Self.shell("\"$0\" classify --no-such-option \"$1\" 2>&-", ["\(Self.examples)/seven.png"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
    }

    @Test("stdout and stderr a pipe with no reader, SIGPIPE ignored: exit 1, no crash")
    func pipeWithoutReader() throws {
        // `(trap '' PIPE; digits classify -r DIR 2>&1 | head -1)` once head
        // has gone: every write fails with EPIPE. The ignored SIGPIPE is
        // inherited from the test process (CommandRunner ignores it).
        signal(SIGPIPE, SIG_IGN)
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandRunner.digits)
        process.arguments = ["classify", "-r", Fixtures.path("hostile")]
        process.standardOutput = pipe.fileHandleForWriting
        process.standardError = pipe.fileHandleForWriting
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try pipe.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 1)
    }

    @Test("stderr a pipe with no reader, SIGPIPE as default: results complete, exit 1")
    func stderrPipeWithoutReaderDefaultSignal() throws {
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = "\(folder)/out.json"
        // The reader (true) has gone before digits writes its first diagnostic.
        let script = "mkfifo \"$1/fifo\"; true < \"$1/fifo\" & exec 3> \"$1/fifo\"; wait; "
            + "env --default-signal=PIPE \"$0\" classify --json \"$2\" \"$3\" \"$4\" > \"$1/out.json\" 2>&3; echo \"status $?\""
        let result = try Self.shell(script, [folder] + Self.mixedInputs)
        #expect(result.stdout == "status 1\n", "\(result.stderr)")
        #expect(try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").count == 3)
    }

    @Test("stream with a frame that fails and stderr on a full disk: the end line, exit 1")
    func streamStderrFull() throws {
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let frames = "\(folder)/frames"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: "\(Self.examples)/seven.png"))
        bytes.append(try Fixtures.data("hostile/corrupt-zlib.png"))
        bytes.append(try Data(contentsOf: URL(fileURLWithPath: "\(Self.examples)/seven.png")))
        try bytes.write(to: URL(fileURLWithPath: frames))
        let result = try Self.shell("\"$0\" stream --json \"$1\" 2>/dev/full", [frames])
        #expect(result.status == 1)
        let end = try #require(result.stdoutLines.last)
        #expect(end.contains("\"event\": \"end\"") && end.contains("\"failed\": 1"), "\(result.stdout)")
    }

    @Test("help and the version on a full disk or closed stdout: reported, exit 1",
          arguments: [["--help"], ["--version"], ["classify", "--help"]], [">/dev/full", ">&-"])
    func helpUnwritable(_ arguments: [String], _ redirection: String) throws {
        let result = try Self.shell("\"$0\" \(arguments.joined(separator: " ")) \(redirection)")
        #expect(result.status == 1)
        let expected = redirection == ">&-" ? "digits: standard output is closed" : "digits: standard output: No space left on device"
        #expect(result.stderr == expected + "\n")
    }

    @Test("ascii, preprocess and stream output on a full disk: reported, exit 1",
          arguments: [["ascii"], ["preprocess"], ["preprocess", "--json"], ["stream"], ["stream", "--json"]])
    func commandOutputFull(_ command: [String]) throws {
        let result = try Self.shell("\"$0\" \(command.joined(separator: " ")) \"$1\" > /dev/full", ["\(Self.examples)/seven.png"])
        #expect(result.status == 1)
        #expect(result.stderr == "digits: standard output: No space left on device\n")
    }

    @Test("stream with stdout closed says so, exit 1")
    func streamStdoutClosed() throws {
        let result = try Self.shell("\"$0\" stream \"$1\" >&-", ["\(Self.examples)/seven.png"])
        #expect(result.status == 1)
        #expect(result.stderr == "digits: standard output is closed\n")
    }

    @Test("reading a closed standard input says so, never what another file holds", arguments: [
        (["classify", "-"], "digits: -: standard input is closed"),
        (["classify", "--json", "-"], "digits: -: standard input is closed"),
        (["classify", "--files-from", "-"], "digits: -: standard input is closed"),
        (["ascii", "-"], "digits: -: standard input is closed"),
    ])
    func stdinClosed(_ arguments: [String], _ expected: String) throws {
        // classify opens the model while its workers read standard input:
        // the model file must not take the closed descriptor's number.
        for _ in 0..<3 {
            let result = try Self.shell("\"$0\" \(arguments.joined(separator: " ")) <&-")
            #expect(result.status == 1)
            #expect(result.stderr == expected + "\n")
        }
    }

    @Test("stream from a closed standard input: the error in the end line, exit 1")
    func streamStdinClosed() throws {
        let result = try Self.shell("\"$0\" stream --json <&-")
        #expect(result.status == 1)
        #expect(result.stderr == "digits: -: standard input is closed\n")
        #expect(result.stdout.contains("\"error\": \"standard input is closed\""))
    }
}
