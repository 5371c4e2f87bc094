import DigitKit
import Foundation
import Testing
import TestSupport

/// End-to-end tests of `digits classify` on many inputs: lists of paths,
/// folders, shards, images on standard input, output formats, and output
/// that cannot be written.
@Suite("digits classify at scale")
struct AtScaleCLITests {
    static let examples = Fixtures.repositoryRoot.appendingPathComponent("Examples").path

    static func scratch() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digits-scale-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Copies Examples/seven.png (a 7) and two.png (a 2) to the given names in `folder`.
    static func place(_ names: [String: String], in folder: String) throws {
        for (name, example) in names {
            let path = "\(folder)/\(name)"
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: "\(examples)/\(example)", toPath: path)
        }
    }

    /// The digit of each text line ("name: 7 (99.9%)" gives "7").
    static func digitsOf(_ lines: [String]) -> [String] {
        lines.map { String($0.split(separator: ": ").last?.prefix(1) ?? "") }
    }

    @Test("--files-from: names with spaces and non-ASCII, one per line, from a file or standard input")
    func filesFrom() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.place(["a seven.png": "seven.png", "zwei – 二.png": "two.png"], in: folder)
        let list = "\(folder)/a seven.png\n\(folder)/zwei – 二.png\n"
        try Data(list.utf8).write(to: URL(fileURLWithPath: "\(folder)/list.txt"))
        let fromFile = try CommandRunner.digits(["classify", "--files-from", "\(folder)/list.txt"])
        #expect(fromFile.status == 0)
        #expect(fromFile.stdoutLines.map { $0.components(separatedBy: ": ").first! } == ["\(folder)/a seven.png", "\(folder)/zwei – 二.png"])
        #expect(Self.digitsOf(fromFile.stdoutLines) == ["7", "2"])
        let fromStdin = try CommandRunner.digits(["classify", "\(Self.examples)/two.png", "--files-from", "-"], stdin: Data(list.utf8))
        #expect(fromStdin.stdoutLines.count == 3)
        #expect(Array(fromStdin.stdoutLines.dropFirst()) == fromFile.stdoutLines)
    }

    @Test("--files-from with -0: names holding newlines")
    func nulSeparatedList() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.place(["two\nlines.png": "two.png", "plain.png": "seven.png"], in: folder)
        let list = "\(folder)/two\nlines.png\0\(folder)/plain.png\0"
        let result = try CommandRunner.digits(["classify", "--json", "-0", "--files-from", "-"], stdin: Data(list.utf8))
        #expect(result.status == 0)
        let objects = try result.stdoutLines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(objects.map { $0["file"] as? String } == ["\(folder)/two\nlines.png", "\(folder)/plain.png"])
        #expect(objects.map { $0["digit"] as? Int } == [2, 7])
        #expect(try CommandRunner.digits(["classify", "-0", "x.png"]).status == 2)
        #expect(try CommandRunner.digits(["classify", "--files-from", "-", "-"]).status == 2)
    }

    @Test("folders with --recursive: every image by content, sorted; without it, an error naming the folder")
    func folders() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.place(["b/deep/one.png": "seven.png", "a.png": "two.png", "c-no-extension": "seven.png"], in: folder)
        try Data("a note".utf8).write(to: URL(fileURLWithPath: "\(folder)/b/notes.txt"))
        let result = try CommandRunner.digits(["classify", "--recursive", folder])
        #expect(result.status == 0)
        #expect(result.stdoutLines.map { $0.components(separatedBy: ": ").first! } == ["\(folder)/a.png", "\(folder)/b/deep/one.png", "\(folder)/c-no-extension"])
        #expect(Self.digitsOf(result.stdoutLines) == ["2", "7", "7"])
        let plain = try CommandRunner.digits(["classify", folder, "\(Self.examples)/two.png"])
        #expect(plain.status == 1)
        #expect(plain.stderrLines == ["digits: \(folder): is a folder; add --recursive to take the images in it"])
        #expect(plain.stdoutLines.count == 1)
    }

    @Test("--shard I/N: N processes classify every input exactly once between them", arguments: [2, 3])
    func shards(count: Int) throws {
        let files = RealWorldFixture.all.prefix(25).map(\.path) + ["/no/such.png"]
        let whole = try CommandRunner.digits(["classify", "--format", "csv"] + files)
        var rows: [String] = []
        for index in 0..<count {
            let part = try CommandRunner.digits(["classify", "--format", "csv", "--shard", "\(index)/\(count)"] + files)
            #expect(part.stdoutLines.first == whole.stdoutLines.first)
            rows += part.stdoutLines.dropFirst()
        }
        #expect(rows.count == files.count)
        #expect(Set(rows.map { $0.components(separatedBy: ",").first! }) == Set(files))
        let key = { (row: String) in row.components(separatedBy: ",").prefix(4).joined(separator: ",") }
        #expect(rows.map(key).sorted() == whole.stdoutLines.dropFirst().map(key).sorted())
        #expect(try CommandRunner.digits(["classify", "--shard", "3/3", files[0]]).status == 2)
        // A list that cannot be read fails every process, not only the one whose share it would be.
        for index in 0..<count {
            let part = try CommandRunner.digits(["classify", "--shard", "\(index)/\(count)", "--files-from", "/no/list"])
            #expect(part.status == 1)
            #expect(part.stderrLines == ["digits: /no/list: no such file"])
        }
    }

    @Test("concatenated PNGs on standard input: one result each, in order, with their index")
    func concatenatedStandardInput() throws {
        let seven = try Data(contentsOf: URL(fileURLWithPath: "\(Self.examples)/seven.png"))
        let two = try Data(contentsOf: URL(fileURLWithPath: "\(Self.examples)/two.png"))
        let text = try CommandRunner.digits(["classify", "-"], stdin: seven + two + seven)
        #expect(text.status == 0)
        #expect(text.stdoutLines.map { $0.prefix(7) } == ["-[0]: 7", "-[1]: 2", "-[2]: 7"])
        let json = try CommandRunner.digits(["classify", "--json", "-"], stdin: seven + two)
        let objects = try json.stdoutLines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(objects.map { $0["index"] as? Int } == [0, 1])
        #expect(objects.map { $0["digit"] as? Int } == [7, 2])
        let broken = try CommandRunner.digits(["classify", "-"], stdin: seven + two.prefix(100))
        #expect(broken.status == 1)
        #expect(broken.stdoutLines.map { $0.prefix(7) } == ["-[0]: 7"])
        #expect(broken.stderrLines == ["digits: -[1]: truncated PNG: the stream ends inside the IDAT chunk"])
    }

    @Test("--format csv: a header, one row per input, fields quoted as RFC 4180 asks")
    func csv() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.place(["comma, \"quoted\".png": "seven.png"], in: folder)
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: "\(folder)/bad.png"))
        let blank = Fixtures.path("realworld/blank-000.png")
        let result = try CommandRunner.digits(["classify", "--format", "csv", "\(folder)/comma, \"quoted\".png", "\(folder)/bad.png", blank])
        #expect(result.status == 1)
        let lines = result.stdoutLines
        #expect(lines.count == 4)
        #expect(lines[0] == "file,index,status,digit,confidence,uncertain,message")
        #expect(lines[1].hasPrefix("\"\(folder)/comma, \"\"quoted\"\".png\",,digit,7,0.99"))
        #expect(lines[1].hasSuffix(",false,"))
        #expect(lines[2] == "\(folder)/bad.png,,error,,,,\"not an image digits can read (PNG, JPEG or PNM)\"")
        #expect(lines[3] == "\(blank),,no_digit,,,,no digit found")
        #expect(try CommandRunner.digits(["classify", "--json", "--format", "csv", blank]).status == 2)
        #expect(try CommandRunner.digits(["classify", "--json", "--format", "json", blank]).status == 0)
    }

    @Test("order and results do not depend on the threads: big and small pictures, bad files among them")
    func orderUnderParallelism() throws {
        // Every fourth real-world fixture, each kind among them: the
        // sanitizer passes run this too, each picture several times slower.
        var files = stride(from: 0, to: RealWorldFixture.all.count, by: 4).map { RealWorldFixture.all[$0].path }
        files.insert("/no/such/file.png", at: 5)
        files.insert(Fixtures.path("hostile/truncated-at-127.png"), at: 40)
        files.insert(Fixtures.path("hostile/one-by-5000.png"), at: 68)
        let one = try CommandRunner.digits(["classify", "--threads", "1"] + files)
        let four = try CommandRunner.digits(["classify", "--threads", "4", "--batch", "7"] + files)
        #expect(one.status == 1 && four.status == 1)
        #expect(one.stdoutLines.count == files.count - 2)
        #expect(one.stdoutLines == four.stdoutLines)
        #expect(one.stderrLines == four.stderrLines)
        #expect(one.stderrLines.count == 2)
    }

    @Test("a full disk: one line naming standard output and the cause, exit 1")
    func fullDisk() throws {
        for format in ["text", "json", "csv"] {
            let result = try CommandRunner.run("/bin/sh", ["-c", "\"$0\" classify --format \(format) \"$1\" > /dev/full", CommandRunner.digits,
                                                           "\(Self.examples)/seven.png"])
            #expect(result.status == 1, "\(format)")
            #expect(result.stderrLines == ["digits: standard output: No space left on device"], "\(format)")
        }
        let ascii = try CommandRunner.run("/bin/sh", ["-c", "\"$0\" ascii \"$1\" > /dev/full", CommandRunner.digits, "\(Self.examples)/seven.png"])
        #expect(ascii.status == 1 && ascii.stderrLines == ["digits: standard output: No space left on device"])
    }

    @Test("a closed pipe: quiet exit by SIGPIPE as filters do; with SIGPIPE ignored, a one-line error and exit 1")
    func closedPipe() throws {
        let files = Array(repeating: "\(Self.examples)/seven.png", count: 300)
        let script = "\"$0\" classify \"$@\" | head -n 1 >/dev/null; echo \"status ${PIPESTATUS[0]}\""
        let quiet = try CommandRunner.run("/usr/bin/env", ["--default-signal=PIPE", "bash", "-c", script, CommandRunner.digits] + files)
        #expect(quiet.stdout == "status 141\n")
        #expect(quiet.stderr.isEmpty)
        let ignored = try CommandRunner.run("/usr/bin/env", ["--ignore-signal=PIPE", "bash", "-c", script, CommandRunner.digits] + files)
        #expect(ignored.stdout == "status 1\n")
        #expect(ignored.stderrLines == ["digits: standard output: Broken pipe"])
    }

    @Test("through a pipe each result comes as soon as it is ready, not at the end")
    func resultsAsTheyCome() throws {
        let seven = try Data(contentsOf: URL(fileURLWithPath: "\(Self.examples)/seven.png"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandRunner.digits)
        process.arguments = ["classify", "-"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var lines: [String] = []
        for round in 0..<2 {
            // The next image is written only once the previous result has been read.
            try input.fileHandleForWriting.write(contentsOf: seven)
            var line = Data()
            let deadline = Date().addingTimeInterval(60)
            while !line.contains(UInt8(ascii: "\n")) && Date() < deadline {
                let byte = output.fileHandleForReading.readData(ofLength: 1)
                if byte.isEmpty { break }
                line += byte
            }
            lines.append(String(decoding: line, as: UTF8.self))
            #expect(line.last == UInt8(ascii: "\n"), "round \(round)")
        }
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(lines.map { $0.prefix(7) } == ["-[0]: 7", "-[1]: 7"])
        #expect(process.terminationStatus == 0)
    }

    @Test("a progress bar on a terminal's stderr, for classify and eval; none when stderr is not a terminal")
    func progressBar() throws {
        let files = RealWorldFixture.all.prefix(12).map(\.path)
        // script(1) runs digits on a pseudo-terminal; its stdout and stderr both reach the typescript.
        let command = ([CommandRunner.digits, "classify"] + files).map { "'\($0)'" }.joined(separator: " ") + " > /dev/null"
        let terminal = try CommandRunner.run("/usr/bin/script", ["-qfec", command, "/dev/null"])
        #expect(terminal.status == 0)
        #expect(terminal.stdout.contains("12/12 files"), "\(terminal.stdout)")
        let images = Fixtures.path("mnist/t10k-images-idx3-ubyte.gz"), labels = Fixtures.path("mnist/t10k-labels-idx1-ubyte.gz")
        let eval = try CommandRunner.run("/usr/bin/script", ["-qfec", "'\(CommandRunner.digits)' eval --images '\(images)' --labels '\(labels)' --limit 300 > /dev/null", "/dev/null"])
        #expect(eval.stdout.contains("300/300 images"), "\(eval.stdout)")
        let piped = try CommandRunner.digits(["classify"] + files)
        #expect(piped.stderr.isEmpty)
    }
}
