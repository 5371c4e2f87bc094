import DigitKit
import Foundation
import Testing
import TestSupport

/// Messages that say what is wrong in the words a user expects: a folder
/// is not "a PNG file", a negative value is not a "missing value", every
/// `stream` failure ends with its end line, a missing file is "no such
/// file" everywhere, and an oversized dimension names the limit.
@Suite("clear messages")
struct ClearMessagesTests {
    static let examples = Fixtures.repositoryRoot.appendingPathComponent("Examples").path

    @Test("a folder where a picture is expected is a folder, not a PNG file")
    func folderAsPicture() throws {
        let result = try CommandRunner.digits(["ascii", Self.examples])
        #expect(result.status == 1)
        #expect(result.stderr == "digits: \(Self.examples): is a folder, not an image\n")
    }

    @Test("a folder in a --files-from list is a folder, not a PNG file; the other entries are classified")
    func folderInList() throws {
        let list = FileManager.default.temporaryDirectory.appendingPathComponent("digits-list-\(UUID().uuidString).txt").path
        defer { try? FileManager.default.removeItem(atPath: list) }
        try Data("\(Self.examples)\n\(Self.examples)/seven.png\n".utf8).write(to: URL(fileURLWithPath: list))
        let result = try CommandRunner.digits(["classify", "--files-from", list])
        #expect(result.status == 1)
        #expect(result.stderr == "digits: \(Self.examples): is a folder, not an image\n")
        #expect(result.stdoutLines.count == 1 && result.stdoutLines[0].hasPrefix("\(Self.examples)/seven.png: 7 "))
        let preprocessed = try CommandRunner.digits(["preprocess", "--json", "--files-from", list])
        #expect(preprocessed.status == 1 && preprocessed.stderr == result.stderr)
        #expect(preprocessed.stdoutLines.count == 1 && preprocessed.stdout.hasPrefix("{\"file\": \"\(Self.examples)/seven.png\", \"tensor\": ["))
    }

    @Test("a negative value is refused for its value, not as a missing one", arguments: [
        (["classify", "--threads", "-1"], "--threads must be between 1 and 1024, got -1"),
        (["classify", "--uncertain-below", "-0.5"], "--uncertain-below must be a probability from 0 to 1, got -0.5"),
        (["classify", "--batch", "-3"], "--batch must be between 1 and 4096, got -3"),
        (["classify", "--top", "-2"], "--top must be between 1 and 10, got -2"),
        (["classify", "--shard", "-1/4"], "--shard: a shard is I/N with 0 <= I < N, got -1/4"),
        (["read", "--length", "-4"], "--length must be between 1 and 64, got -4"),
        (["stream", "--roi", "-5,0,10,10"], "--roi -5,0,10,10: expected X,Y,W,H (whole pixels, W and H above 0) or center:F"),
        (["stream", "--stable", "-1"], "--stable must be between 1 and 1000, got -1"),
    ])
    func negativeValues(_ arguments: [String], _ message: String) throws {
        let result = try CommandRunner.digits(arguments + ["\(Self.examples)/seven.png"])
        #expect(result.status == 2)
        #expect(result.stderrLines.first == "Error: \(message)", "\(result.stderr)")
        #expect(!result.stderr.contains("Missing value"))
    }

    @Test("--uncertain-below -0 is zero")
    func negativeZero() throws {
        let result = try CommandRunner.digits(["classify", "--uncertain-below", "-0", "\(Self.examples)/seven.png"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutLines.count == 1 && result.stdoutLines[0].hasPrefix("\(Self.examples)/seven.png: 7 "))
    }

    @Test("stream of a missing file: 'no such file' and the end line, exit 1", arguments: [false, true])
    func streamMissingFile(json: Bool) throws {
        let result = try CommandRunner.digits(["stream"] + (json ? ["--json"] : []) + ["/nonexistent/clip.y4m"])
        #expect(result.status == 1)
        #expect(result.stderr == "digits: /nonexistent/clip.y4m: no such file\n")
        #expect(result.stdoutLines == [json
            ? #"{"event": "end", "frames": 0, "analysed": 0, "dropped": 0, "fps": 0, "error": "no such file"}"#
            : "end: 0 frames, 0 analysed, 0 dropped, 0 fps"])
    }

    @Test("stream with a model that fails to load: the end line, exit 2")
    func streamModelFails() throws {
        let notAModel = "\(Self.examples)/seven.png"
        let result = try CommandRunner.digits(["stream", "--json", "--model", notAModel, "-"], stdin: Data())
        #expect(result.status == 2)
        #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("digits: \(notAModel): "), "\(result.stderr)")
        let end = try #require(result.stdoutLines.last)
        #expect(result.stdoutLines.count == 1)
        #expect(end.hasPrefix(#"{"event": "end", "frames": 0, "analysed": 0, "dropped": 0, "fps": 0, "error": ""#), "\(end)")
    }

    @Test("a y4m width or height over the pixel limit names the limit", arguments: [
        ("YUV4MPEG2 W1000000000 H10 Cmono\n", "frame width 1000000000 is over the limit of \(PNGDecoder.defaultMaxPixels) pixels"),
        ("YUV4MPEG2 W10 H123456789012345678901234567890 Cmono\n",
         "frame height 12345678901234567890... is over the limit of \(PNGDecoder.defaultMaxPixels) pixels"),
    ])
    func y4mDimensionOverLimit(_ header: String, _ message: String) throws {
        let result = try CommandRunner.digits(["stream", "--json", "-"], stdin: Data(header.utf8))
        #expect(result.status == 1)
        #expect(result.stderr == "digits: -: \(message)\n")
        #expect(result.stdout.contains("\"error\": \"\(message)\""))
    }
}
