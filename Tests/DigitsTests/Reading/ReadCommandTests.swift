import Foundation
import Testing

/// `digits read` end to end through the built binary: text and JSON output,
/// exit codes, and one bad file costing only its own line.
@Suite("digits read")
struct ReadCommandTests {
    static let numbers = Fixtures.path("numbers")
    static let examples = Fixtures.repositoryRoot.appendingPathComponent("Examples").path

    @Test("one line per file: the number and its probability, or no digit found")
    func text() throws {
        let result = try CLITests.digits(["read", "\(Self.numbers)/negative-001.png", "\(Self.examples)/blank-paper.png"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdoutLines.count == 2)
        #expect(result.stdoutLines[0].wholeMatch(of: #/.+negative-001\.png: -830 \(\d{1,3}\.\d%\)/#) != nil, "\(result.stdout)")
        #expect(result.stdoutLines[1] == "\(Self.examples)/blank-paper.png: no digit found")
    }

    @Test("--json: the documented keys in order, a decimal point as a char with a null digit")
    func json() throws {
        let file = "\(Self.numbers)/decimal-000.png"
        let result = try CLITests.digits(["read", "--json", file, "\(Self.examples)/blank-paper.png"])
        #expect(result.status == 0)
        let lines = result.stdoutLines
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix(#"{"file": "\#(file)", "text": "386.96", "confidence": "#))
        #expect(lines[0].contains(#""uncertain": false, "digits": [{"digit": 3, "confidence": "#))
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
        let text = try CLITests.digits(["read", broken, good, "/no/such/file.png"])
        #expect(text.status == 1)
        #expect(text.stdoutLines.count == 1 && text.stdout.contains("negative-001.png: -830 ("))
        #expect(text.stderrLines.count == 2)
        #expect(text.stderrLines.first?.hasPrefix("digits: \(broken): ") == true)
        let json = try CLITests.digits(["read", "--json", broken, good])
        #expect(json.status == 1)
        #expect(json.stdoutLines.first?.hasPrefix(#"{"file": "\#(broken)", "error": "#) == true)
        #expect(json.stdoutLines.count == 2)
    }

    @Test("--steps draws the ink, then a box and the reading per character, then the result line")
    func steps() throws {
        let file = "\(Self.numbers)/decimal-000.png"
        let result = try CLITests.digits(["read", "--steps", file])
        #expect(result.status == 0)
        let lines = result.stdoutLines
        #expect(lines.first == "the ink, with what was read in each box:")
        #expect(lines.last?.hasPrefix("\(file): 386.96 (") == true)
        let boxes = try #require(lines.dropLast(2).last)
        #expect(boxes.filter { $0 == "[" }.count == 6, "\(boxes)")
        #expect(lines.dropLast().last?.split(separator: " ") == ["3", "8", "6", ".", "9", "6"])
        #expect(lines.count > 6, "the drawing has rows of ink")
    }

    @Test("usage errors exit 2", arguments: [
        ["read"], ["read", "--raw", "x.png"], ["read", "--length", "0", "x.png"], ["read", "--uncertain-below", "2", "x.png"],
        ["read", "--steps", "--json", "x.png"],
    ])
    func usage(arguments: [String]) throws {
        let result = try CLITests.digits(arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
    }
}
