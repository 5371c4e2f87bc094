@testable import DigitKit
import Foundation
import Testing
import TestSupport

/// `digits stream` end to end: pipes that must not back up, broken
/// streams, frames that fail, usage errors, Ctrl-C.
@Suite("digits stream")
struct StreamCLITests {
    /// The frames of the committed 320x240 mono clip: its header and each frame's bytes.
    static func monoClip() throws -> (clip: StreamClip, header: [UInt8], frames: [[UInt8]]) {
        let clip = try #require(StreamClip.all().first { $0.format == "y4m-mono" && $0.width == 320 })
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: try clip.path())))
        let headerEnd = bytes.firstIndex(of: UInt8(ascii: "\n"))! + 1
        let frameLength = 6 + clip.width * clip.height
        let frames = stride(from: headerEnd, to: bytes.count, by: frameLength).map { Array(bytes[$0..<($0 + frameLength)]) }
        return (clip, Array(bytes[..<headerEnd]), frames)
    }

    static func json(_ line: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? [:]
    }

    static func scratchFile(_ bytes: [UInt8], name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("digits-stream-\(UUID().uuidString)-\(name)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("from a pipe at 30 frames a second with a slow analysis, frames are dropped, not queued")
    func pacedPipeDrops() throws {
        let (_, header, clipFrames) = try Self.monoClip()
        // Twice over: more frames than are kept while the model loads.
        let frames = Array(repeating: clipFrames, count: 2).joined()
        let command = try RunningCommand(["stream", "--json", "--simulate-slow-analysis", "150"])
        command.write(header)
        for frame in frames {
            command.write(frame)
            usleep(33_333)
        }
        command.closeInput()
        let result = command.finish()
        #expect(result.status == 0, "\(result.stderr)")
        let end = Self.json(result.stdoutLines.last ?? "")
        let analysed = end["analysed"] as? Int ?? -1, dropped = end["dropped"] as? Int ?? -1
        #expect(end["frames"] as? Int == frames.count)
        #expect(analysed + dropped == frames.count)
        // At 150 ms a frame, about a fifth of frames written every 33 ms can
        // be analysed (beyond those that arrived while the model loaded,
        // which are kept); a queue would have analysed them all.
        let kept = FrameHandOff.startUpFrames
        #expect(analysed >= 1 && analysed <= kept + (frames.count - kept) / 2, "analysed \(analysed) of \(frames.count)")
    }

    @Test("from a pipe with --every-frame, every frame is analysed and the events are the clip's")
    func everyFrameFromPipe() throws {
        let clip = try #require(StreamClip.all().first { $0.format == "png" })
        let bytes = try Data(contentsOf: URL(fileURLWithPath: try clip.path()))
        let result = try CommandRunner.digits(["stream", "--every-frame", "--json", "-"], stdin: bytes)
        #expect(result.status == 0, "\(result.stderr)")
        let end = Self.json(result.stdoutLines.last ?? "")
        #expect(end["analysed"] as? Int == clip.frames && end["dropped"] as? Int == 0)
        #expect(result.stdoutLines.dropLast().map { Self.json($0)["digit"] as? Int }.compactMap { $0 } == clip.events.compactMap(\.digit))
    }

    @Test("a stream cut off mid-frame: the events so far, then one error line naming the frame, exit 1")
    func cutOff() throws {
        let (_, header, frames) = try Self.monoClip()
        let path = try Self.scratchFile(header + frames.prefix(30).joined() + frames[30].prefix(1000), name: "cut.y4m")
        defer { unlink(path) }
        let result = try CommandRunner.digits(["stream", "--json", path])
        #expect(result.status == 1)
        #expect(result.stderrLines == ["digits: \(path): frame 30: truncated: the stream ends inside the frame"])
        #expect(result.stdoutLines.count >= 2, "the first digit was decided before frame 30")
        let end = Self.json(result.stdoutLines.last ?? "")
        #expect(end["event"] as? String == "end" && end["frames"] as? Int == 30)
        #expect((end["error"] as? String)?.hasPrefix("frame 30: truncated") == true)
    }

    @Test("a model that fails in its forward pass mid-stream: the end line, one error line naming the model, exit 2")
    func forwardFailure() throws {
        let (clip, _, _) = try Self.monoClip()
        let model = Fixtures.model("fails-on-ink")
        let result = try CommandRunner.digits(["stream", "--json", "--every-frame", "--model", model, try clip.path()])
        #expect(result.status == 2)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderrLines.first?.hasPrefix("digits: \(model): frame ") == true, "\(result.stderr)")
        #expect(result.stderr.contains("forward pass failed") && result.stderr.contains("this model fails on ink"))
        let end = Self.json(result.stdoutLines.last ?? "")
        #expect(end["event"] as? String == "end")
        #expect((end["error"] as? String)?.contains("forward pass failed") == true)
    }

    @Test("bad headers: one line naming the cause, exit 1, no frame analysed", arguments: [
        ("YUV4MPEG2 W0 H240 Cmono\n", "width '0' is not a positive number"),
        ("YUV4MPEG2 W320 H240 Cxyz\n", "unsupported YUV4MPEG2 chroma Cxyz"),
        ("YUV4MPEG2 W400000 H400000 Cmono\n", "larger than the limit"),
        ("GIF89a\u{1}\u{0}\u{1}\u{0}", "not a video stream"),
    ])
    func badHeader(text: String, cause: String) throws {
        let result = try CommandRunner.digits(["stream", "-"], stdin: Data(text.utf8))
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1 && result.stderrLines.first?.hasPrefix("digits: -: ") == true)
        #expect(result.stderr.contains(cause), "\(result.stderr)")
    }

    @Test("a PNG frame that fails to decode is reported by index and skipped; the others are analysed")
    func failedFrame() throws {
        let seven = Array(try Data(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("Examples/seven.png")))
        let corrupt = Array(try Fixtures.data("hostile/corrupt-zlib.png"))
        let stream = Array(repeating: seven, count: 3).joined() + corrupt + Array(repeating: seven, count: 2).joined()
        let result = try CommandRunner.digits(["stream", "--every-frame", "--roi", "center:1", "--json"], stdin: Data(stream))
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1 && result.stderrLines.first?.hasPrefix("digits: -: frame 3: ") == true, "\(result.stderr)")
        #expect(Self.json(result.stdoutLines.first ?? "")["digit"] as? Int == 7)
        let end = Self.json(result.stdoutLines.last ?? "")
        #expect(end["frames"] as? Int == 6 && end["analysed"] as? Int == 5 && end["failed"] as? Int == 1)
    }

    @Test("a region that does not fit the frames is a usage error (exit 2)")
    func regionTooLarge() throws {
        let (_, header, frames) = try Self.monoClip()
        let result = try CommandRunner.digits(["stream", "--roi", "300,0,100,100", "-"], stdin: Data(header + frames[0]))
        #expect(result.status == 2)
        #expect(result.stderr.contains("--roi 300,0,100,100 does not fit the 320x240 frame"), "\(result.stderr)")
    }

    @Test("usage errors exit 2", arguments: [["--roi", "1,2,3"], ["--stable", "0"], ["--uncertain-below", "2"], ["--roi", "center:0"]])
    func usage(arguments: [String]) throws {
        let result = try CommandRunner.digits(["stream"] + arguments + ["-"], stdin: Data())
        #expect(result.status == 2, "\(result.stderr)")
    }

    @Test("a missing file: one line, exit 1")
    func missingFile() throws {
        let result = try CommandRunner.digits(["stream", "/nonexistent/clip.y4m"])
        #expect(result.status == 1)
        #expect(result.stderrLines == ["digits: /nonexistent/clip.y4m: no such file"])
    }

    @Test("events reach a regular file as they happen, not when the stream ends")
    func eventsFlushedToAFile() throws {
        let (clip, header, frames) = try Self.monoClip()
        let first = try #require(clip.events.first)
        let path = try Self.scratchFile([], name: "events.jsonl")
        defer { unlink(path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandRunner.digits)
        process.arguments = ["stream", "--json", "--every-frame", "-"]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        signal(SIGPIPE, SIG_IGN)
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: Data(header + frames.prefix(first.first_frame + 8).joined()))
        // The stream stays open: the first event must be in the file while it runs.
        var seen = false
        for _ in 0..<1200 where !seen {  // up to 120 s, for the sanitizer builds
            usleep(100_000)
            seen = (try? String(contentsOfFile: path, encoding: .utf8))?.contains("\"event\": \"digit\"") == true
        }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(seen)
        #expect(process.terminationStatus == 0)
    }

    @Test("Ctrl-C ends a live stream with the end line and status 0")
    func interrupted() throws {
        let (clip, header, frames) = try Self.monoClip()
        let first = try #require(clip.events.first)
        let sent = first.first_frame + 8
        // Every frame, so that the burst written here is analysed, not dropped.
        let command = try RunningCommand(["stream", "--json", "--every-frame"])
        command.write(header)
        for frame in frames.prefix(sent) { command.write(frame) }
        // The first event shows the frames were read and analysed; the pipe stays open.
        let eventSeen = command.waitForOutput(containing: "\"event\": \"digit\"", seconds: 120)
        command.interrupt()
        let result = command.finish()
        #expect(eventSeen)
        #expect(result.status == 0, "\(result.stderr)")
        let end = Self.json(result.stdoutLines.last ?? "")
        #expect(end["event"] as? String == "end" && end["interrupted"] as? Bool == true)
        // Read before the interrupt: at least the frames up to the first
        // event, at most those sent (the reader may still be on the last ones).
        #expect((first.first_frame...sent).contains(end["frames"] as? Int ?? -1))
    }
}
