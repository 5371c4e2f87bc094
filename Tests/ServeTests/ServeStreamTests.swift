import DigitKit
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// `GET /v1/stream`: a committed clip's frames sent over the WebSocket give
/// the clip's events, as `digits stream` prints them.
@Suite("digits serve WebSocket stream")
struct ServeStreamTests {
    /// The frames of a y4m clip as raw GRAY messages, and as PNG-free JPEG-free bytes.
    static func grayMessages(_ clip: StreamClip) throws -> [[UInt8]] {
        let descriptor = open(try clip.path(), O_RDONLY)
        defer { close(descriptor) }
        var source = VideoFrameSource(descriptor: descriptor, name: clip.clip)
        var messages: [[UInt8]] = []
        while let frame = try source.next() {
            guard case .luma(let image) = frame.content else { continue }
            let header = Array("GRAY".utf8) + [UInt8(image.width & 0xFF), UInt8(image.width >> 8), UInt8(image.height & 0xFF), UInt8(image.height >> 8)]
            messages.append(header + image.pixels)
        }
        return messages
    }

    @Test("a clip sent frame by frame gives its events in order, with a 28x28 per frame")
    func clipEvents() throws {
        let clip = try #require(StreamClip.all().first { $0.format == "y4m-mono" })
        let messages = try Self.grayMessages(clip)
        #expect(messages.count == clip.frames)
        let server = try ServerUnderTest()
        defer { _ = server.stop() }
        let socket = try WebSocketTestClient(port: server.port, path: "/v1/stream?frames=true")
        var events: [StreamEvent] = []
        var framesSeen: [Int] = []
        for message in messages {
            try socket.sendBinary(message)
            // Wait for this frame's "frame" event: one in flight, none dropped.
            while let text = try socket.nextText() {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
                let frame = try #require(object["frame"] as? Int)
                switch object["event"] as? String {
                case "digit": events.append(.digit(object["digit"] as? Int ?? -1, confidence: object["confidence"] as? Double ?? 0, frame: frame))
                case "clear": events.append(.clear(frame: frame))
                case "frame":
                    framesSeen.append(frame)
                    if object["digit"] is Int {
                        let pixels = (object["preprocessed"] as? [String: Any])?["pixels"] as? String
                        #expect(Data(base64Encoded: pixels ?? "")?.count == 784)
                    }
                default: Issue.record("unexpected \(text)")
                }
                if object["event"] as? String == "frame" { break }
            }
        }
        try socket.sendClose()
        #expect(framesSeen == Array(0..<clip.frames))
        #expect(clip.mismatches(events, slack: StreamClip.slack).isEmpty, "\(events)")
    }

    @Test("a frame that is no picture gets an error event and the stream goes on; bad options are a 400")
    func badFrames() throws {
        let server = try ServerUnderTest()
        defer { _ = server.stop() }
        let socket = try WebSocketTestClient(port: server.port, path: "/v1/stream?frames=true")
        try socket.sendBinary(Array("GRAY".utf8) + [4, 0, 4, 0, 1, 2, 3])
        let short = try #require(try socket.nextText())
        #expect(short.contains("\"event\": \"error\"") && short.contains("needs 16 pixel bytes, got 3"), "\(short)")
        // Apart by more than the cap of 60 frames a second allows.
        Thread.sleep(forTimeInterval: 0.05)
        try socket.sendBinary(Array("not a picture".utf8))
        let garbage = try #require(try socket.nextText())
        #expect(garbage.contains("\"event\": \"error\"") && garbage.contains("\"frame\": 1"), "\(garbage)")
        let seven = [UInt8](try Data(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("Examples/seven.png")))
        // The cap of 60 frames a second may drop it: then the next one is taken.
        var answered = ""
        for attempt in 0..<5 {
            Thread.sleep(forTimeInterval: 0.05)
            try socket.sendBinary(seven)
            answered = try #require(try socket.nextText())
            if answered.contains("\"event\": \"frame\"") {
                #expect(answered.contains("\"frame\": \(2 + attempt), \"digit\": 7"), "\(answered)")
                break
            }
            #expect(answered == "{\"event\": \"dropped\", \"frame\": \(2 + attempt)}")
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(answered.contains("\"digit\": 7"), "\(answered)")
        #expect(throws: WebSocketTestClient.Failure.self) { try WebSocketTestClient(port: server.port, path: "/v1/stream?stable_frames=0") }
    }
}
