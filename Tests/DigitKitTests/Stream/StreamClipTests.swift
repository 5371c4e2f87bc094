import DigitKit
import Foundation
import Testing
import TestSupport

/// The committed clips (Tests/Fixtures/stream, made by
/// Tests/Tools/make_stream_clips.py from MNIST test digits): blank paper,
/// digits held with camera noise, lighting drift, hand jitter, one-frame
/// occlusions, a digit entering from the edge, swaps through motion blur;
/// in y4m (mono and 4:2:0), PNG, PGM and JPEG streams, at 320x240, 640x480
/// and 1280x720. Each must give exactly its script's events.
@Suite("Stream events on the committed clips")
struct StreamClipTests {

    @Test("the set covers every input format and size")
    func coverage() {
        let clips = StreamClip.all()
        #expect(Set(clips.map(\.format)).isSuperset(of: ["y4m-mono", "y4m-420", "png", "pgm", "mjpeg"]))
        #expect(Set(clips.map { "\($0.width)x\($0.height)" }).isSuperset(of: ["320x240", "640x480", "1280x720"]))
    }

    @Test("digits stream --json prints the clip's events, in order, none extra", arguments: StreamClip.all())
    func cliEvents(clip: StreamClip) throws {
        let result = try CommandRunner.digits(["stream", "--json", try clip.path()])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let lines = result.stdoutLines.map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let events: [StreamEvent] = lines.dropLast().compactMap { object in
            guard let object, let frame = object["frame"] as? Int else { return nil }
            if object["event"] as? String == "clear" { return .clear(frame: frame) }
            guard let digit = object["digit"] as? Int, let confidence = object["confidence"] as? Double else { return nil }
            return .digit(digit, confidence: confidence, frame: frame)
        }
        #expect(events.count == lines.count - 1, "every line but the last is an event")
        let problems = clip.mismatches(events, slack: StreamClip.slack)
        #expect(problems.isEmpty, "\(problems)")
        let end = lines.last.flatMap { $0 }
        #expect(end?["event"] as? String == "end")
        #expect(end?["frames"] as? Int == clip.frames && end?["analysed"] as? Int == clip.frames && end?["dropped"] as? Int == 0)
    }

    @Test("the Swift API gives the same events as the command")
    func libraryEvents() throws {
        guard let clip = StreamClip.all().first(where: { $0.format == "y4m-mono" }) else {
            Issue.record("no y4m-mono clip")
            return
        }
        let recognizer = StreamRecognizer(model: try DigitModel(path: Fixtures.shippedModel))
        let descriptor = open(try clip.path(), O_RDONLY)
        defer { close(descriptor) }
        var events: [StreamEvent] = []
        var analysed = 0
        let summary = try recognizer.run(VideoFrameSource(descriptor: descriptor, name: clip.clip),
                                         onFrame: { analysis, _ in if analysis.error == nil { analysed += 1 } },
                                         onEvent: { event, _ in events.append(event) })
        #expect(clip.mismatches(events, slack: StreamClip.slack).isEmpty, "\(events)")
        #expect(summary.frames == clip.frames && summary.analysed == clip.frames && analysed == clip.frames)
        #expect(summary.error == nil && !summary.interrupted && summary.dropped == 0)
    }
}
