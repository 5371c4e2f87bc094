@testable import DigitKit
import Foundation
import Testing
import TestSupport

/// The frame reader of `digits stream`, on streams built in memory: every
/// layout it reads, and every way a stream can be broken.
@Suite("Video frames")
struct VideoFrameSourceTests {
    static let seven = Fixtures.repositoryRoot.appendingPathComponent("Examples/seven.png").path

    /// Three distinct 4x3 frames.
    static let frames: [[UInt8]] = (0..<3).map { index in (0..<12).map { UInt8($0 * 10 + index) } }

    @Test("y4m: the Y plane of each frame, chroma skipped, for every chroma layout", arguments: ["mono", "420jpeg", "420paldv", "420mpeg2", "420", "422", "444"])
    func y4mLayouts(chroma: String) throws {
        let stream = SyntheticVideo.y4m(width: 4, height: 3, chroma: chroma, frames: Self.frames)
        let (frames, error) = try SyntheticVideo.read(stream)
        #expect(error == nil)
        #expect(frames.map(\.index) == [0, 1, 2])
        for (frame, expected) in zip(frames, Self.frames) {
            guard case .luma(let image) = frame.content else { Issue.record("not luma"); continue }
            #expect(image.width == 4 && image.height == 3 && image.pixels == expected)
        }
    }

    @Test("y4m: FRAME lines with parameters, odd sizes with 4:2:0")
    func frameParameters() throws {
        let luma = (0..<15).map { UInt8($0) }
        let stream = SyntheticVideo.y4m(width: 5, height: 3, chroma: "420jpeg", frames: [luma, luma], frameParameters: " Ip XFRAME=1")
        let (frames, error) = try SyntheticVideo.read(stream)
        #expect(error == nil && frames.count == 2)
    }

    @Test("pictures back to back: PNG, JPEG and binary PGM, each a frame")
    func imageStream() throws {
        let png = Array(try Data(contentsOf: URL(fileURLWithPath: Self.seven)))
        let pgm = Array("P5 4 3 255\n".utf8) + Self.frames[0]
        let jpeg = Array(try Fixtures.data("formats/gray-q90.jpg"))
        let (frames, error) = try SyntheticVideo.read(png + pgm + jpeg + png)
        #expect(error == nil)
        #expect(frames.count == 4)
        guard frames.count == 4, case .encoded(let bytes) = frames[1].content else { return }
        #expect(bytes == pgm)
    }

    @Test("broken streams end with an error naming the frame and the cause", arguments: [
        ("cut off inside frame 1", "frame 1: truncated"),
        ("garbage between frames", "frame 1: corrupt YUV4MPEG2 stream: no FRAME header"),
        ("FRAME line without an end", "frame 1: corrupt FRAME header: no end of line"),
        ("cut off in the chroma", "frame 0: truncated"),
    ])
    func brokenY4M(case name: String, expected: String) throws {
        let good = SyntheticVideo.y4m(width: 4, height: 3, chroma: "420jpeg", frames: Self.frames)
        let headerLength = good.firstIndex(of: UInt8(ascii: "\n"))! + 1
        let frameLength = 6 + 12 + 2 * 2 * 2
        var stream: [UInt8]
        switch name {
        case "cut off inside frame 1": stream = Array(good.prefix(headerLength + frameLength + 10))
        case "garbage between frames":
            stream = Array(good.prefix(headerLength + frameLength)) + Array("junk".utf8) + good.suffix(from: headerLength + frameLength)
        case "FRAME line without an end":
            stream = Array(good.prefix(headerLength + frameLength)) + Array("FRAME ".utf8) + Array(repeating: UInt8(ascii: "x"), count: 5000)
        default: stream = Array(good.prefix(headerLength + frameLength - 3))
        }
        let (frames, error) = try SyntheticVideo.read(stream)
        #expect(error?.message.hasPrefix(expected) == true, "\(error?.message ?? "no error")")
        #expect(frames.count == (name == "cut off in the chroma" ? 0 : 1))
    }

    @Test("bad headers and unknown streams fail before any frame, without a frame number", arguments: [
        ("YUV4MPEG2 W0 H240 Cmono\n", "width '0' is not a positive number"),
        ("YUV4MPEG2 W65536 H65536 Cmono\n", "larger than the limit"),
        ("YUV4MPEG2 W320 H240 C411\n", "unsupported YUV4MPEG2 chroma C411"),
        ("YUV4MPEG2 W320 H240", "truncated YUV4MPEG2 header"),
        ("", "empty stream"),
        ("GIF89a....", "not a video stream"),
    ])
    func badStart(text: String, expected: String) throws {
        let (frames, error) = try SyntheticVideo.read(Array(text.utf8), maxPixels: 1 << 26)
        #expect(frames.isEmpty)
        #expect(error?.message.contains(expected) == true, "\(error?.message ?? "no error")")
        #expect(error?.message.hasPrefix("frame") == false)
    }

    @Test("an endless header line is refused at its bound, not buffered")
    func endlessHeader() throws {
        let stream = Array("YUV4MPEG2 W4 H3 X".utf8) + Array(repeating: UInt8(ascii: "a"), count: 100_000)
        let (_, error) = try SyntheticVideo.read(stream)
        #expect(error?.message.contains("no end of line") == true)
    }

    @Test("an image stream cut off, or with garbage after a picture, names the frame")
    func brokenImageStream() throws {
        let png = Array(try Data(contentsOf: URL(fileURLWithPath: Self.seven)))
        let cut = try SyntheticVideo.read(png + png.prefix(100))
        #expect(cut.frames.count == 1 && cut.error?.message.hasPrefix("frame 1: truncated PNG") == true, "\(cut.error?.message ?? "")")
        let garbage = try SyntheticVideo.read(png + Array("garbage!".utf8))
        #expect(garbage.frames.count == 1 && garbage.error?.message.hasPrefix("frame 1: not a picture") == true)
    }
}
