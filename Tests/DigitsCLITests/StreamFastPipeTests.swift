import Foundation
import Testing
import TestSupport

/// `digits stream` fed by a pipe faster than real time (a recorded video
/// through ffmpeg without -re, the natural first try): the frames that
/// arrive while the model loads are analysed, and a run that dropped most
/// frames says so on stderr, with what to do.
@Suite("digits stream from a pipe faster than real time")
struct StreamFastPipeTests {
    /// Runs `digits stream` with `arguments`, its input `bytes` written as fast as the pipe takes them.
    static func run(_ arguments: [String], bytes: [UInt8]) throws -> CommandResult {
        let command = try RunningCommand(["stream"] + arguments)
        command.write(bytes)
        command.closeInput()
        return command.finish()
    }

    @Test("the frames that arrive while the model loads are kept: the first digit is reported at the frame it appears")
    func startUpFramesKept() throws {
        let (clip, header, frames) = try StreamCLITests.monoClip()
        // The analysis is slow: without the frames kept, only the newest
        // frames would be analysed once the model is ready.
        let result = try Self.run(["--json", "--simulate-slow-analysis", "30"], bytes: header + frames.joined())
        #expect(result.status == 0, "\(result.stderr)")
        let first = try #require(clip.events.first { $0.event == "digit" })
        let reported = result.stdoutLines.map(StreamCLITests.json).first { $0["event"] as? String == "digit" }
        #expect(reported?["digit"] as? Int == first.digit)
        let frame = reported?["frame"] as? Int ?? -1
        #expect((first.first_frame...(first.first_frame + 4)).contains(frame),
                "first digit at frame \(frame), it appears at \(first.first_frame): \(result.stdout)")
    }

    @Test("when most frames are dropped, one line on stderr says how many and what to do; the status stays 0")
    func droppedFramesWarning() throws {
        let (_, header, frames) = try StreamCLITests.monoClip()
        // The clip five times over: more frames than are kept while the model loads.
        let video = Array(repeating: frames, count: 5).joined()
        let result = try Self.run(["--simulate-slow-analysis", "20", "-"], bytes: header + video.joined())
        #expect(result.status == 0, "\(result.stderr)")
        let end = result.stdoutLines.last ?? ""
        // Frames, analysed, dropped (then fps, which may be whole too).
        let counts = Array(end.split(separator: " ").compactMap { Int($0) }.prefix(3))
        #expect(counts.count == 3 && counts[0] == video.count && counts[2] * 2 > video.count, "\(end)")
        let dropped = counts.count == 3 ? counts[2] : -1
        #expect(result.stderrLines == [
            "digits: standard input: \(dropped) of \(video.count) frames were dropped because they came faster than they "
                + "could be analysed; for a recorded video add --every-frame (or ffmpeg -re to play it in real time)",
        ])
    }

    @Test("with --every-frame nothing is dropped and nothing is said")
    func everyFrameQuiet() throws {
        let (_, header, frames) = try StreamCLITests.monoClip()
        let video = Array(repeating: frames, count: 2).joined()
        let result = try Self.run(["--every-frame", "-"], bytes: header + video.joined())
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.stdoutLines.last?.hasPrefix("end: \(video.count) frames, \(video.count) analysed, 0 dropped") == true)
    }
}
