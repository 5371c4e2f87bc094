import Foundation
import Testing
import TestSupport

/// `digits read` end to end through the built binary: text and JSON output,
/// exit codes, and one bad file costing only its own line.
@Suite("digits read")
struct ReadCommandTests {
    static let numbers = Fixtures.path("numbers")
    static let examples = Fixtures.repositoryRoot.appendingPathComponent("Examples").path

    @Test("one line per file: the number and its probability, or no digit found")
    func text() throws {
        let result = try CLI.digits(["read", "\(Self.numbers)/negative-001.png", "\(Self.examples)/blank-paper.png"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdoutLines.count == 2)
        #expect(result.stdoutLines[0].wholeMatch(of: #/.+negative-001\.png: -830 \(\d{1,3}\.\d%\)/#) != nil, "\(result.stdout)")
        #expect(result.stdoutLines[1] == "\(Self.examples)/blank-paper.png: no digit found")
    }

    @Test("--json: the documented keys in order, a decimal point as a char with a null digit")
    func json() throws {
        let file = "\(Self.numbers)/decimal-000.png"
        let result = try CLI.digits(["read", "--json", file, "\(Self.examples)/blank-paper.png"])
        #expect(result.status == 0)
        let lines = result.stdoutLines
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix(#"{"file": "\#(file)", "text": "386.96", "confidence": "#))
        #expect(lines[0].contains(#/"uncertain": (true|false)(, "warnings": \["not a digit"\])?, "digits": \[\{"digit": 3, "confidence": /#))
        #expect(lines[0].contains(#"{"digit": null, "char": ".", "confidence": 1.0, "box": ["#))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        let digits = try #require(object["digits"] as? [[String: Any]])
        #expect(digits.count == 6)
        for entry in digits { #expect((entry["box"] as? [Int])?.count == 4) }
        #expect(lines[1] == #"{"file": "\#(Self.examples)/blank-paper.png", "text": null, "reason": "no digit found"}"#)
    }

    @Test("a bad file among good ones: its own one-line error, exit 1, the others still read")
    func badFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digits-read-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("broken.png").path
        try Data("not a picture\n".utf8).write(to: URL(fileURLWithPath: broken))
        let good = "\(Self.numbers)/negative-001.png"
        let text = try CLI.digits(["read", broken, good, "/no/such/file.png"])
        #expect(text.status == 1)
        #expect(text.stdoutLines.count == 1 && text.stdout.contains("negative-001.png: -830 ("))
        #expect(text.stderrLines.count == 2)
        #expect(text.stderrLines.first?.hasPrefix("digits: \(broken): ") == true)
        let json = try CLI.digits(["read", "--json", broken, good])
        #expect(json.status == 1)
        #expect(json.stdoutLines.first?.hasPrefix(#"{"file": "\#(broken)", "error": "#) == true)
        #expect(json.stdoutLines.count == 2)
    }

    @Test("--steps says what found the ink, draws it, then a box and the reading per character, then the result line")
    func steps() throws {
        let file = "\(Self.numbers)/decimal-000.png"
        let result = try CLI.digits(["read", "--steps", file])
        #expect(result.status == 0)
        let lines = result.stdoutLines
        // Steps 1 to 8, as ascii --steps numbers them; step 8 says which part decided the ink.
        #expect(lines.prefix(8).map { $0.prefix(2) } == ["1.", "2.", "3.", "4.", "5.", "6.", "7.", "8."])
        #expect(lines.dropFirst(7).first?.hasPrefix("8. ink: rules where located") == true)
        #expect(lines.dropFirst(8).first == "the ink, with what was read in each box:")
        #expect(lines.last?.hasPrefix("\(file): 386.96 (") == true)
        let boxes = try #require(lines.dropLast(2).last)
        #expect(boxes.filter { $0 == "[" }.count == 6, "\(boxes)")
        #expect(lines.dropLast().last?.split(separator: " ") == ["3", "8", "6", ".", "9", "6"])
        #expect(lines.count > 6, "the drawing has rows of ink")
    }

    /// Every PNG of the committed numbers set, sorted.
    static func numberFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: numbers).filter { $0.hasSuffix(".png") }.sorted().map { "\(numbers)/\($0)" }
    }

    @Test("many files on every core: input order kept, the same lines as one thread, a bad file among them only its own")
    func parallel() throws {
        let files = try Self.numberFiles()
        #expect(files.count >= 70)
        // Small and large pictures interleaved, and a broken one in the middle.
        let inputs = Array(files.prefix(35)) + ["/no/such/number.png"] + Array(files.dropFirst(35))
        let all = try CLI.digits(["read", "--threads", "2"] + inputs)
        let one = try CLI.digits(["read", "--threads", "1"] + inputs)
        #expect(all.status == 1 && one.status == 1)
        #expect(all.stdoutLines.count == files.count)
        #expect(all.stdoutLines == one.stdoutLines)
        #expect(all.stdoutLines.map { String($0.split(separator: ":").first!) } == files)
        #expect(all.stderrLines == ["digits: /no/such/number.png: no such file"])
    }

    @Test("inputs as for classify: --files-from, folders with --recursive, --shard, pictures one after another on standard input")
    func inputs() throws {
        let files = Array(try Self.numberFiles().prefix(6))
        let list = try CLI.digits(["read", "--files-from", "-"], stdin: Data(files.map { $0 + "\n" }.joined().utf8))
        let plain = try CLI.digits(["read"] + files)
        #expect(list.status == 0 && list.stdoutLines.count == 6)
        #expect(list.stdoutLines == plain.stdoutLines)
        let folder = try CLI.digits(["read", "--recursive", "\(Self.examples)/numbers"])
        #expect(folder.status == 0)
        #expect(folder.stdoutLines.map { ($0 as NSString).lastPathComponent.components(separatedBy: ":").first! }
                == ["minus-12.png", "price-3.14.png", "ruled-2026.png", "touching-4711.png", "year-2026.png"])
        let halves = try (0..<2).map { try CLI.digits(["read", "--shard", "\($0)/2"] + files).stdoutLines }
        #expect(Set(halves[0]).isDisjoint(with: halves[1]))
        #expect(Set(halves[0] + halves[1]) == Set(plain.stdoutLines))
        let bytes = try files.prefix(2).map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        let stdin = try CLI.digits(["read", "--json", "-"], stdin: bytes[0] + bytes[1])
        #expect(stdin.status == 0)
        let objects = try stdin.stdoutLines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.map { $0["index"] as? Int } == [0, 1])
        #expect(stdin.stdoutLines.allSatisfy { $0.hasPrefix(#"{"file": "-", "index": "#) })
        let texts = plain.stdoutLines.prefix(2).map { $0.components(separatedBy: ": ")[1].components(separatedBy: " (")[0] }
        #expect(objects.map { $0["text"] as? String } == texts)
    }

    @Test("usage errors exit 2", arguments: [
        ["read"], ["read", "--raw", "x.png"], ["read", "--length", "0", "x.png"], ["read", "--uncertain-below", "2", "x.png"],
        ["read", "--steps", "--json", "x.png"], ["read", "--line-model", "l.pt", "--no-line-model", "x.png"],
    ])
    func usage(arguments: [String]) throws {
        let result = try CLI.digits(arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
    }

    @Test("touching digits: read whole by the shipped line model, cut apart without it")
    func touching() throws {
        let file = "\(Self.examples)/numbers/touching-4711.png"
        let withLineModel = try CLI.digits(["read", "--json", file])
        #expect(withLineModel.status == 0)
        #expect(withLineModel.stdout.hasPrefix(#"{"file": "\#(file)", "text": "4711", "#), "\(withLineModel.stdout)")
        let explicit = try CLI.digits(["read", "--json", "--line-model", Fixtures.shippedLineModel, file])
        #expect(explicit.stdout == withLineModel.stdout)
        let cutting = try CLI.digits(["read", "--json", "--no-line-model", file])
        #expect(cutting.status == 0)
        #expect(cutting.stdout != withLineModel.stdout)
    }

    @Test("a --line-model that fails to load: one line naming the file, exit 2, nothing read", arguments: [
        "/no/such/line.pt", Fixtures.shippedModel, Fixtures.path("models/random-bytes.pt"),
    ])
    func badLineModel(path: String) throws {
        let result = try CLI.digits(["read", "--line-model", path, "\(Self.numbers)/spaced-000.png"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains(path), "\(result.stderr)")
    }
}
