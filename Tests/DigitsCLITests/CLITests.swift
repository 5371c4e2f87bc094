import DigitKit
import Foundation
import Testing
import TestSupport

/// End-to-end tests of the built `digits` binary: output, exit codes, and
/// that one bad input never costs the others their result.
@Suite("digits CLI")
struct CLITests {
    static let examples = Fixtures.repositoryRoot.appendingPathComponent("Examples").path
    /// A scratch folder holding a good PNG, a text file named .png and an empty file.
    static func scratchFolder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digits-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "\(examples)/seven.png", toPath: folder.appendingPathComponent("good seven.png").path)
        try Data("this is not an image\n".utf8).write(to: folder.appendingPathComponent("text.png"))
        try Data().write(to: folder.appendingPathComponent("empty.png"))
        return folder.path
    }

    @Test("classifies the MNIST-like examples right, one line each, exit 0")
    func classifiesExamples() throws {
        let result = try CLI.digits(["classify", "\(Self.examples)/seven.png", "\(Self.examples)/two.png", "\(Self.examples)/four-large.png"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let lines = result.stdoutLines
        #expect(lines.count == 3)
        for (line, digit) in zip(lines, [7, 2, 4]) {
            #expect(line.range(of: #"^.+\.png: \#(digit) \(\d{1,3}\.\d%\)$"#, options: .regularExpression) != nil, "\(line)")
        }
    }

    @Test("--json prints one object per file with the documented fields")
    func jsonOutput() throws {
        let result = try CLI.digits(["classify", "--json", "--top", "3", "\(Self.examples)/seven.png"])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["file"] as? String == "\(Self.examples)/seven.png")
        #expect(object["digit"] as? Int == 7)
        let probabilities = try #require(object["probabilities"] as? [Double])
        #expect(probabilities.count == 10)
        // With the "not a digit" probability, not listed, they sum to 1; a
        // digit not marked uncertain has that below 0.1.
        let sum = probabilities.reduce(0, +)
        #expect(sum <= 1 + 1e-6 && sum > 0.9, "\(sum)")
        let confidence = try #require(object["confidence"] as? Double)
        #expect(confidence == probabilities.max())
        #expect(object["uncertain"] as? Bool == false)
        let top = try #require(object["top"] as? [[String: Any]])
        #expect(top.map { $0["digit"] as? Int } == [7] + probabilities.indices.sorted { probabilities[$0] > probabilities[$1] }[1...2].map { $0 })
    }

    @Test("a bad file among good ones: others classified, one-line errors, exit 1")
    func badFileAmongGood() throws {
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let files = ["\(folder)/text.png", "\(folder)/good seven.png", "\(folder)/missing.png", "\(folder)/empty.png", folder,
                     "\(Self.examples)/two.png"]
        let text = try CLI.digits(["classify"] + files)
        #expect(text.status == 1)
        #expect(text.stdoutLines == ["\(folder)/good seven.png: 7 (\(text.stdoutLines.first?.split(separator: "(").last ?? "")",
                                     "\(Self.examples)/two.png: 2 (\(text.stdoutLines.last?.split(separator: "(").last ?? "")"])
        #expect(text.stderrLines == [
            "digits: \(folder)/text.png: not an image digits can read (PNG, JPEG or PNM)",
            "digits: \(folder)/missing.png: no such file",
            "digits: \(folder)/empty.png: empty file",
            "digits: \(folder): is a folder; add --recursive to take the images in it",
        ])

        let json = try CLI.digits(["classify", "--json"] + files)
        #expect(json.status == 1)
        let objects = try json.stdoutLines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(objects.map { $0["file"] as? String } == files)
        #expect(objects.map { $0["error"] as? String } == ["not an image digits can read (PNG, JPEG or PNM)", nil, "no such file", "empty file",
                                                          "is a folder; add --recursive to take the images in it", nil])
        #expect(objects.map { $0["digit"] as? Int } == [nil, 7, nil, nil, nil, 2])
    }

    @Test("a missing model: one line naming it, nothing on stdout (no header, no result for a bad file), exit 2",
          arguments: ["text", "csv"])
    func missingModel(format: String) throws {
        // The workers start on the inputs while the model loads: none of
        // their results may show.
        let result = try CLI.digits(["classify", "--format", format, "--model", "/no/such/model.pt",
                                      "\(Self.examples)/seven.png", "/no/such/picture.png"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines == ["digits: /no/such/model.pt: model file not found"])
    }

    @Test("a wrong-shape model is refused with what was expected and what came, exit 2")
    func wrongShapeModel() throws {
        let model = Fixtures.model("wrong-shape")
        let result = try CLI.digits(["classify", "--model", model, "\(Self.examples)/seven.png"])
        #expect(result.status == 2)
        #expect(result.stderrLines == ["digits: \(model): not a digit model: expected forward to return a float tensor of shape [1, 10] or [1, 11], got a Float tensor of shape [1, 3]"])
        var environment = CLI.environment
        environment["DIGITS_MODEL"] = model
        #expect(try CLI.digits(["classify", "\(Self.examples)/seven.png"], environment: environment).status == 2)
    }

    @Test("a model that loads but fails in its forward pass stops the run: one line naming it and the cause, exit 2",
          arguments: ["classify", "read"])
    func forwardFailure(_ command: String) throws {
        // fails-on-ink.pt passes the bridge's probe (an all-zero picture),
        // so it loads; the first real picture breaks its forward pass.
        let model = Fixtures.model("fails-on-ink")
        let result = try CLI.digits([command, "--model", model, "\(Self.examples)/seven.png", "\(Self.examples)/two.png"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderrLines.first?.hasPrefix("digits: \(model): forward pass failed: ") == true, "\(result.stderr)")
        #expect(result.stderr.contains("this model fails on ink"))
    }

    @Test("a batch whose forward pass fails is forwarded picture by picture: every file answered, exit 0")
    func failedBatchForwardedAlone() throws {
        // fails-on-batch.pt answers one picture at a time and fails on more.
        let files = MNISTSample.all.prefix(12).map(\.path)
        let model = ["--model", Fixtures.model("fails-on-batch")]
        let batched = try CLI.digits(["classify", "--batch", "8"] + model + files)
        let alone = try CLI.digits(["classify", "--batch", "1"] + model + files)
        #expect(batched.status == 0 && alone.status == 0, "\(batched.stderr)")
        #expect(batched.stderr.isEmpty)
        #expect(batched.stdoutLines.map { $0.components(separatedBy: ": ").first ?? "" } == files)
        #expect(batched.stdoutLines == alone.stdoutLines)
    }

    @Test("usage errors exit 2", arguments: [["classify"], ["classify", "--top", "0", "x.png"], ["classify", "--threads", "0", "x.png"],
                                             ["frobnicate"], ["classify", "-", "-"], ["ascii"]])
    func usageErrors(_ arguments: [String]) throws {
        let result = try CLI.digits(arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(!result.stderr.isEmpty)
    }

    @Test("reads a PNG from standard input")
    func standardInput() throws {
        let png = try Data(contentsOf: URL(fileURLWithPath: "\(Self.examples)/two.png"))
        let result = try CLI.digits(["classify", "-"], stdin: png)
        #expect(result.status == 0)
        #expect(result.stdoutLines.first?.hasPrefix("-[0]: 2 (") == true)
        let empty = try CLI.digits(["classify", "-"], stdin: Data())
        #expect(empty.status == 1)
        #expect(empty.stderrLines == ["digits: -: empty file"])
    }

    @Test("finds the shipped model from anywhere inside the checkout")
    func defaultModelFromSubfolder() throws {
        let result = try CLI.digits(["classify", "../Examples/seven.png"],
                                     in: Fixtures.repositoryRoot.appendingPathComponent("Sources").path)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("../Examples/seven.png: 7 ("))
    }

    @Test("ascii draws 28 rows; --values prints 28 rows of 28 numbers")
    func ascii() throws {
        let art = try CLI.digits(["ascii", "\(Self.examples)/seven.png"])
        #expect(art.status == 0)
        #expect(art.stdoutLines.count == 28)
        #expect(art.stdout.contains("@"))
        let values = try CLI.digits(["ascii", "--values", "\(Self.examples)/seven.png"])
        #expect(values.stdoutLines.count == 28)
        #expect(values.stdoutLines.allSatisfy { $0.split(separator: " ").count == 28 })
        let bad = try CLI.digits(["ascii", "/no/such.png"])
        #expect(bad.status == 1)
        #expect(bad.stderrLines == ["digits: /no/such.png: no such file"])
    }

    @Test("--help documents the exit codes")
    func helpDocumentsExitCodes() throws {
        for arguments in [["--help"], ["classify", "--help"]] {
            let result = try CLI.digits(arguments)
            #expect(result.status == 0)
            #expect(result.stdout.contains("Exit status: 0"))
            #expect(result.stdout.contains("2 usage error"))
        }
    }

    @Test("--version names digits and the libtorch it was built against")
    func version() throws {
        let result = try CLI.digits(["--version"])
        #expect(result.status == 0)
        let line = try #require(result.stdoutLines.first)
        #expect(result.stdoutLines.count == 1)
        #expect(line.wholeMatch(of: /digits \d+\.\d+\.\d+ \(libtorch \d+\.\d+\.\d+.*\)/) != nil)
        #expect(line.hasSuffix("(libtorch \(TorchRuntime.torchVersion ?? "none"))"))
    }

    @Test("CHANGELOG.md's top entry is the release --version prints")
    func changelogNamesTheRelease() throws {
        let changelog = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let top = try #require(changelog.split(separator: "\n").first { $0.hasPrefix("## ") })
        let release = try #require(try CLI.digits(["--version"]).stdoutLines.first?.split(separator: " ").dropFirst().first)
        #expect(top.hasPrefix("## \(release) ("), "\(top) against \(release)")
    }

    static let blankPaper = Fixtures.path("realworld/blank-000.png")

    @Test("a blank picture: 'no digit found', never a guess, exit 0")
    func blankPicture() throws {
        let text = try CLI.digits(["classify", Self.blankPaper, "\(Self.examples)/seven.png"])
        #expect(text.status == 0)
        #expect(text.stdoutLines.first == "\(Self.blankPaper): no digit found")
        let json = try CLI.digits(["classify", "--json", Self.blankPaper])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["digit"] is NSNull)
        #expect(object["reason"] as? String == "no digit found")
        #expect(object.keys.sorted() == ["digit", "file", "reason"])
        let preprocess = try CLI.digits(["preprocess", "--json", Self.blankPaper])
        #expect(preprocess.status == 0)
        #expect(preprocess.stdout.contains("\"tensor\": null, \"reason\": \"no digit found\""))
    }

    @Test("predictions under --uncertain-below are marked uncertain")
    func uncertainMarker() throws {
        let text = try CLI.digits(["classify", "--uncertain-below", "1", "\(Self.examples)/seven.png"])
        #expect(text.stdout.hasSuffix("%, uncertain)\n"))
        let json = try CLI.digits(["classify", "--json", "--uncertain-below", "1", "\(Self.examples)/seven.png"])
        #expect(json.stdout.contains("\"uncertain\": true"))
        #expect(try CLI.digits(["classify", "--uncertain-below", "1.5", "\(Self.examples)/seven.png"]).status == 2)
    }

    @Test("the MNIST pipeline reads pictures the whole-picture resize (--raw) gets wrong")
    func pipelineAgainstRaw() throws {
        let files = ["three-on-paper.png", "five-transparent.png", "nine-small-in-corner.png"].map { "\(Self.examples)/\($0)" }
        let pipeline = try CLI.digits(["classify"] + files)
        #expect(pipeline.stdoutLines.map { $0.split(separator: " ")[1] } == ["3", "5", "9"])
        let raw = try CLI.digits(["classify", "--raw"] + files)
        let rawDigits = raw.stdoutLines.map { $0.split(separator: " ")[1] }
        #expect(rawDigits.count == 3)
        #expect(zip(rawDigits, ["3", "5", "9"]).allSatisfy { $0 != $1 }, "--raw read \(rawDigits)")
        #expect(try CLI.digits(["classify", "--raw", "--invert", "never", files[0]]).status == 2)
    }

    @Test("preprocess prints the 784 values ascii --values shows, and --steps draws the stages")
    func preprocessAndSteps() throws {
        let file = "\(Self.examples)/three-on-paper.png"
        let json = try CLI.digits(["preprocess", "--json", file])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let tensor = try #require(object["tensor"] as? [Double])
        #expect(tensor.count == 784)
        let text = try CLI.digits(["preprocess", file]).stdoutLines.flatMap { $0.split(separator: " ").map { Double($0)! } }
        #expect(text == tensor)
        let shown = try CLI.digits(["ascii", "--values", file]).stdoutLines.flatMap { $0.split(separator: " ").map { Double($0)! } }
        #expect(zip(shown, tensor).allSatisfy { abs($0 - $1) <= 5e-5 })
        let steps = try CLI.digits(["ascii", "--steps", file])
        #expect(steps.status == 0)
        for header in ["picture (300x200", "ink made bright (inverted)", "digit's box (", "model input (28x28):"] {
            #expect(steps.stdout.contains(header), "\(header)")
        }
    }

    @Test("preprocess takes several pictures: each one's values as it alone gives them, a bad one named and exit 1")
    func preprocessSeveral() throws {
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let three = "\(Self.examples)/three-on-paper.png", blank = "\(Self.examples)/blank-paper.png"
        let alone = try CLI.digits(["preprocess", "--json", three]).stdout
        let json = try CLI.digits(["preprocess", "--json", three, "\(folder)/text.png", blank, three])
        #expect(json.status == 1)
        #expect(json.stderrLines == ["digits: \(folder)/text.png: not an image digits can read (PNG, JPEG or PNM)"])
        #expect(json.stdoutLines.count == 3)
        #expect(json.stdoutLines[0] + "\n" == alone && json.stdoutLines[2] + "\n" == alone)
        #expect(json.stdoutLines[1] == #"{"file": "\#(blank)", "tensor": null, "reason": "no digit found"}"#)
        let text = try CLI.digits(["preprocess", three, blank])
        #expect(text.status == 0)
        #expect(text.stdoutLines.count == 31)
        #expect(text.stdoutLines[0] == "==> \(three) <==" && text.stdoutLines[29] == "==> \(blank) <==")
        #expect(text.stdoutLines[30] == "no digit found")
        let single = try CLI.digits(["preprocess", three]).stdoutLines
        #expect(Array(text.stdoutLines[1...28]) == single)
        #expect(try CLI.digits(["preprocess", "-", "-"]).status == 2)
    }

    @Test("preprocess takes a --files-from list, folders with --recursive and --shard, as classify does")
    func preprocessListsAndFolders() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digits-preprocess-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: "\(folder)/scans", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let names = ["a three.png", "b blank.png", "c seven.png"]
        for (name, example) in zip(names, ["three-on-paper.png", "blank-paper.png", "seven.png"]) {
            try FileManager.default.copyItem(atPath: "\(Self.examples)/\(example)", toPath: "\(folder)/scans/\(name)")
        }
        try Data("notes\n".utf8).write(to: URL(fileURLWithPath: "\(folder)/scans/notes.txt"))
        let paths = names.map { "\(folder)/scans/\($0)" }
        let separately = try paths.map { try CLI.digits(["preprocess", "--json", $0]).stdout }.joined()

        let walked = try CLI.digits(["preprocess", "--json", "--recursive", "\(folder)/scans"])
        #expect(walked.status == 0)
        try #require(walked.stdoutLines.count == 3)
        #expect(walked.stdout == separately)
        #expect(walked.stderrLines == ["digits: \(folder)/scans: 1 file skipped, not pictures (\(folder)/scans/notes.txt)"])

        let list = "\(folder)/list"
        try Data(paths.joined(separator: "\0").utf8).write(to: URL(fileURLWithPath: list))
        let listed = try CLI.digits(["preprocess", "--json", "--files-from", list, "-0"])
        #expect(listed.status == 0 && listed.stdout == separately)
        let text = try CLI.digits(["preprocess", "--files-from", list, "-0"])
        #expect(text.status == 0 && text.stdoutLines.count == 29 + 2 + 29)
        #expect(text.stdoutLines.filter { $0.hasPrefix("==> ") } == paths.map { "==> \($0) <==" })

        // A header unless one FILE or - is given alone: a list of one has it, - beside a file too.
        try Data(paths[0].utf8).write(to: URL(fileURLWithPath: list))
        let one = try CLI.digits(["preprocess", "--files-from", list]).stdoutLines
        #expect(one.count == 29 && one[0] == "==> \(paths[0]) <==")
        let seven = try Data(contentsOf: URL(fileURLWithPath: paths[2]))
        let piped = try CLI.digits(["preprocess", "-"], stdin: seven)
        #expect(piped.status == 0 && piped.stdoutLines.count == 28 && !piped.stdout.contains("==>"))
        let beside = try CLI.digits(["preprocess", paths[0], "-"], stdin: seven).stdoutLines
        #expect(beside.count == 58 && beside[29] == "==> - <==" && Array(beside[30...]) == piped.stdoutLines)

        let shards = try (0..<2).map { try CLI.digits(["preprocess", "--json", "--shard", "\($0)/2", "-r", "\(folder)/scans"]).stdoutLines }
        #expect(shards[0] == [walked.stdoutLines[0], walked.stdoutLines[2]] && shards[1] == [walked.stdoutLines[1]])

        let unwalked = try CLI.digits(["preprocess", "\(folder)/scans"])
        #expect(unwalked.status == 1 && unwalked.stdout.isEmpty)
        #expect(unwalked.stderrLines == ["digits: \(folder)/scans: is a folder; add --recursive to take the images in it"])
    }
}
