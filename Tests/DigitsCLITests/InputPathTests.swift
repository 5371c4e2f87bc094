@testable import DigitKit
import Foundation
import Testing
import TestSupport

/// Inputs whose names or kinds are unusual: FIFOs among the files, names
/// that are not UTF-8 or hold control characters, paths longer than
/// PATH_MAX, folders of pictures digits cannot read, runaway list entries.
/// Nothing may hang, be skipped without a word, or break a line.
@Suite("Input paths and kinds")
struct InputPathTests {
    static let examples = Fixtures.repositoryRoot.appendingPathComponent("Examples").path

    /// A fresh folder holding seven.png and two.png, removed by `clean`.
    static func scratch() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digits-paths-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "\(examples)/seven.png", toPath: "\(folder)/seven.png")
        try FileManager.default.copyItem(atPath: "\(examples)/two.png", toPath: "\(folder)/two.png")
        return folder
    }

    /// rm -rf, which removes trees deeper than PATH_MAX too.
    static func clean(_ folder: String) {
        _ = try? CommandRunner.run("/bin/rm", ["-rf", folder])
    }

    /// Runs a bash script in `folder` with $DIGITS the built binary and at
    /// most 60 seconds: names that are not UTF-8 can only be given as
    /// bytes, which bash's $'...' quoting writes. A run that hangs ends
    /// with status 124.
    static func bash(_ script: String, in folder: String) throws -> CommandResult {
        let body = "cd \"$1\" || exit 99\n" + script
        return try CommandRunner.run("/usr/bin/env", ["DIGITS=\(CommandRunner.digits)", "timeout", "-s", "KILL", "60", "/bin/bash", "-c", body, "bash", folder])
    }

    static func json(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test("a FIFO among the inputs is refused at once, in one line, and the others are classified")
    func fifo() throws {
        let folder = try Self.scratch()
        defer { Self.clean(folder) }
        #expect(mkfifo("\(folder)/f.png", 0o644) == 0)
        let named = try Self.bash("\"$DIGITS\" classify --json seven.png two.png f.png", in: folder)
        #expect(named.status == 1)
        #expect(named.stdoutLines.count == 3)
        #expect(try Self.json(named.stdoutLines[2])["error"] as? String == "not a regular file (a FIFO)")
        #expect(named.stderrLines == ["digits: f.png: not a regular file (a FIFO)"])
        let listed = try Self.bash("printf 'f.png\\nseven.png\\n' | \"$DIGITS\" classify --files-from -", in: folder)
        #expect(listed.status == 1)
        #expect(listed.stdoutLines == ["seven.png: 7 (100.0%)"])
        #expect(listed.stderrLines == ["digits: f.png: not a regular file (a FIFO)"])
        let preprocessed = try Self.bash("printf 'f.png\\nseven.png\\n' | \"$DIGITS\" preprocess --json --files-from -", in: folder)
        #expect(preprocessed.status == 1)
        #expect(preprocessed.stdoutLines.count == 1 && preprocessed.stdout.hasPrefix("{\"file\": \"seven.png\", \"tensor\": ["))
        #expect(preprocessed.stderrLines == ["digits: f.png: not a regular file (a FIFO)"])
        for command in ["ascii", "preprocess"] {
            let single = try Self.bash("\"$DIGITS\" \(command) f.png", in: folder)
            #expect(single.status == 1, "\(command)")
            #expect(single.stderrLines == ["digits: f.png: not a regular file (a FIFO)"], "\(command)")
        }
        let device = try Self.bash("\"$DIGITS\" classify /dev/null", in: folder)
        #expect(device.stderrLines == ["digits: /dev/null: not a regular file (a character device)"])
    }

    @Test("a name that is not UTF-8 opens by its bytes, by name, in lists and in folders, and shows escaped")
    func latin1Names() throws {
        let folder = try Self.scratch()
        defer { Self.clean(folder) }
        let setUp = try Self.bash("mkdir walk && cp seven.png $'walk/caf\\xe9.png' && printf 'walk/caf\\xe9.png\\0' > list0 && cp list0 $'l\\xefst0'", in: folder)
        try #require(setUp.status == 0, "\(setUp.stderr)")
        let named = try Self.bash("\"$DIGITS\" classify $'walk/caf\\xe9.png'", in: folder)
        #expect(named.status == 0, "\(named.stderr)")
        #expect(named.stdoutLines == ["$'walk/caf\\xE9.png': 7 (100.0%)"])
        let walked = try Self.bash("\"$DIGITS\" classify --json -r walk", in: folder)
        #expect(walked.status == 0)
        let object = try Self.json(try #require(walked.stdoutLines.first))
        #expect(object["file"] as? String == "$'walk/caf\\xE9.png'")
        #expect(object["file_base64"] as? String == Data([UInt8]("walk/caf".utf8) + [0xE9] + [UInt8](".png".utf8)).base64EncodedString())
        #expect(object["digit"] as? Int == 7)
        let listed = try Self.bash("\"$DIGITS\" classify --format csv -0 --files-from list0", in: folder)
        #expect(listed.status == 0)
        #expect(listed.stdoutLines.dropFirst().first?.hasPrefix("$'walk/caf\\xE9.png',,digit,7,") == true, "\(listed.stdout)")
        let listNamed = try Self.bash("\"$DIGITS\" classify -0 --files-from=$'l\\xefst0'", in: folder)
        #expect(listNamed.stdoutLines == ["$'walk/caf\\xE9.png': 7 (100.0%)"], "\(listNamed.stderr)")
        let ascii = try Self.bash("\"$DIGITS\" preprocess --json $'walk/caf\\xe9.png'", in: folder)
        #expect(ascii.status == 0)
        #expect(try Self.json(ascii.stdout)["file_base64"] as? String == object["file_base64"] as? String)
        for source in ["-0 --files-from list0", "-r walk"] {
            let preprocessed = try Self.bash("\"$DIGITS\" preprocess --json \(source)", in: folder)
            #expect(preprocessed.status == 0, "\(source)")
            #expect(try Self.json(preprocessed.stdout)["file_base64"] as? String == object["file_base64"] as? String, "\(source)")
        }
    }

    @Test("names with a line feed or an escape sequence stay on one line in text and on stderr")
    func controlCharacters() throws {
        let folder = try Self.scratch()
        defer { Self.clean(folder) }
        try FileManager.default.copyItem(atPath: "\(folder)/two.png", toPath: "\(folder)/a\nb\u{1B}[31m.png")
        let text = try Self.bash("\"$DIGITS\" classify $'a\\nb\\e[31m.png' $'no\\nsuch.png'", in: folder)
        #expect(text.status == 1)
        #expect(text.stdoutLines == ["$'a\\nb\\e[31m.png': 2 (100.0%)"])
        #expect(text.stderrLines == ["digits: $'no\\nsuch.png': no such file"])
        // JSON escapes control characters itself: the name as it is.
        let json = try Self.bash("\"$DIGITS\" classify --json $'a\\nb\\e[31m.png'", in: folder)
        #expect(try Self.json(json.stdout)["file"] as? String == "a\nb\u{1B}[31m.png")
        #expect(try Self.json(json.stdout)["file_base64"] == nil)
    }

    /// Makes folders of 200-byte names, `levels` deep, under `folder`, with
    /// seven.png at the bottom; the relative path of that file.
    static func deepFile(in folder: String, levels: Int) throws -> String {
        let name = String(repeating: "d", count: 200)
        let script = "for i in $(seq \(levels)); do mkdir \(name) && cd \(name) || exit 1; done; cp \"$1/../seven.png\" ."
        let made = try bash(script, in: folder)
        try #require(made.status == 0, "\(made.stderr)")
        return "deep/" + Array(repeating: name, count: levels).joined(separator: "/") + "/seven.png"
    }

    @Test("paths longer than PATH_MAX: walked with -r, opened by name and from a list; a name over NAME_MAX is too long")
    func longPaths() throws {
        let folder = try Self.scratch()
        defer { Self.clean(folder) }
        try FileManager.default.createDirectory(atPath: "\(folder)/deep", withIntermediateDirectories: true)
        let deep = try Self.deepFile(in: "\(folder)/deep", levels: 25)
        #expect(deep.utf8.count > Int(PATH_MAX))
        try Data((deep + "\n").utf8).write(to: URL(fileURLWithPath: "\(folder)/list"))
        let walked = try Self.bash("\"$DIGITS\" classify -r deep", in: folder)
        #expect(walked.status == 0, "\(walked.stderr)")
        #expect(walked.stdoutLines == ["\(deep): 7 (100.0%)"])
        let named = try Self.bash("\"$DIGITS\" classify \(deep) --files-from list", in: folder)
        #expect(named.status == 0, "\(named.stderr)")
        #expect(named.stdoutLines == ["\(deep): 7 (100.0%)", "\(deep): 7 (100.0%)"])
        let long = String(repeating: "x", count: 300) + ".png"
        let tooLong = try Self.bash("\"$DIGITS\" classify \(long)", in: folder)
        #expect(tooLong.status == 1)
        #expect(tooLong.stderrLines == ["digits: \(long): name too long"])
    }

    @Test("-r takes every picture it cannot read and reports it as by name; what is not a picture is counted once")
    func unreadablePicturesInFolders() throws {
        let folder = try Self.scratch()
        defer { Self.clean(folder) }
        let scans = "\(folder)/scans"
        try FileManager.default.createDirectory(atPath: scans, withIntermediateDirectories: true)
        let headers: [String: [UInt8]] = [
            "a.tif": Array("II*\0".utf8) + [UInt8](repeating: 0, count: 20),
            "b.bmp": Array("BM".utf8) + [UInt8](repeating: 0, count: 12) + [40, 0, 0, 0] + [UInt8](repeating: 0, count: 20),
            "c.gif": Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 20),
            "d.webp": Array("RIFF\u{10}\0\0\0WEBPVP8 ".utf8) + [UInt8](repeating: 0, count: 20),
            "e.jpg": [],
            "notes.txt": Array("scanned on Monday\n".utf8),
            ".DS_Store": [0, 0, 0, 1, 0x42, 0x75, 0x64, 0x31],
        ]
        for (name, bytes) in headers { try Data(bytes).write(to: URL(fileURLWithPath: "\(scans)/\(name)")) }
        try FileManager.default.copyItem(atPath: "\(folder)/seven.png", toPath: "\(scans)/f.png")
        let result = try Self.bash("\"$DIGITS\" classify -r --format csv scans", in: folder)
        #expect(result.status == 1)
        #expect(result.stdoutLines.map { $0.components(separatedBy: ",").prefix(3).joined(separator: ",") } == [
            "file,index,status", "scans/a.tif,,error", "scans/b.bmp,,error", "scans/c.gif,,error", "scans/d.webp,,error",
            "scans/e.jpg,,error", "scans/f.png,,digit",
        ])
        let named = try Self.bash("\"$DIGITS\" classify --format csv scans/a.tif scans/b.bmp scans/c.gif scans/d.webp scans/e.jpg", in: folder)
        #expect(Array(result.stderrLines.prefix(5)) == named.stderrLines)
        #expect(result.stderrLines.dropFirst(5) == ["digits: scans: 2 files skipped, not pictures (the first: scans/.DS_Store)"])
        #expect(result.stderrLines.contains("digits: scans/e.jpg: empty file"))
        #expect(result.stderrLines[0].hasPrefix("digits: scans/a.tif: a TIFF image, which digits does not read"))
        let preprocessed = try Self.bash("\"$DIGITS\" preprocess -r scans", in: folder)
        #expect(preprocessed.status == 1)
        #expect(preprocessed.stderrLines == result.stderrLines)
        #expect(preprocessed.stdoutLines.count == 29 && preprocessed.stdoutLines[0] == "==> scans/f.png <==")
    }

    @Test("a --files-from entry over 64 KiB is reported, and the list goes on")
    func runawayListEntry() throws {
        let folder = try Self.scratch()
        defer { Self.clean(folder) }
        let list = Data("seven.png\n".utf8) + Data(repeating: UInt8(ascii: "x"), count: 70 * 1024) + Data("\ntwo.png\n".utf8)
        try list.write(to: URL(fileURLWithPath: "\(folder)/list"))
        let result = try Self.bash("\"$DIGITS\" classify --files-from list", in: folder)
        #expect(result.status == 1)
        #expect(result.stdoutLines == ["seven.png: 7 (100.0%)", "two.png: 2 (100.0%)"])
        #expect(result.stderrLines == ["digits: list: line 2 is longer than 65536 bytes; skipped"])
        let preprocessed = try Self.bash("\"$DIGITS\" preprocess --json --files-from list", in: folder)
        #expect(preprocessed.status == 1)
        #expect(try preprocessed.stdoutLines.map { try Self.json($0)["file"] as? String } == ["seven.png", "two.png"])
        #expect(preprocessed.stderrLines == result.stderrLines)
    }

    @Test("the shown form: as is when it can be, else $'...' that bash reads back as the same bytes", arguments: [
        ([UInt8]("plain/名前 with spaces\\and backslash.png".utf8), "plain/名前 with spaces\\and backslash.png"),
        ([UInt8]("caf".utf8) + [0xE9] + [UInt8](".png".utf8), "$'caf\\xE9.png'"),
        ([UInt8]("tab\tquote'\u{7F}\u{9B}".utf8), "$'tab\\tquote\\'\\x7F\\xC2\\x9B'"),
        ([UInt8]("$'looks quoted'".utf8), "$'$\\'looks quoted\\''"),
        ([0xE2, 0x82], "$'\\xE2\\x82'"),
    ])
    func shownForm(bytes: [UInt8], shown: String) throws {
        let path = InputPath(bytes: bytes)
        #expect(path.description == shown)
        guard shown.hasPrefix("$'") else { return }
        let folder = try Self.scratch()
        defer { Self.clean(folder) }
        let printed = try Self.bash("printf %s \(shown) > out", in: folder)
        #expect(printed.status == 0)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(folder)/out"))) == bytes)
    }
}
