@testable import DigitKit
import Testing
import TestSupport

@Suite("YUV4MPEG2 header")
struct Y4MHeaderTests {
    static func header(_ text: String, maxPixels: Int = 1 << 26) throws(DigitError) -> Y4MHeader {
        try Y4MHeader(line: Array(text.utf8), maxPixels: maxPixels)
    }

    @Test("tokens in any order; 4:2:0 when no C token; the frame rate read")
    func tokens() throws {
        let plain = try Self.header("YUV4MPEG2 W320 H240")
        #expect(plain.width == 320 && plain.height == 240 && plain.chroma == .c420jpeg && plain.framesPerSecond == nil)
        let shuffled = try Self.header("YUV4MPEG2 Cmono XCOLORRANGE=FULL A1:1 H480 Ip F30000:1001 W640")
        #expect(shuffled.width == 640 && shuffled.height == 480 && shuffled.chroma == .mono)
        #expect(abs((shuffled.framesPerSecond ?? 0) - 29.97) < 0.01)
    }

    @Test("each chroma tag sizes the planes after the Y plane (odd sides rounded up)")
    func planeSizes() throws {
        let expected: [String: Int] = ["mono": 0, "420jpeg": 2 * 3 * 2, "420paldv": 12, "420mpeg2": 12, "420": 12, "422": 2 * 3 * 3, "444": 2 * 5 * 3]
        for (tag, chroma) in expected {
            let header = try Self.header("YUV4MPEG2 W5 H3 C\(tag)")
            #expect(header.frameBytes == 15 + chroma, "C\(tag)")
        }
    }

    @Test("bad headers are refused with the cause", arguments: [
        ("YUV4MPEG2 H240", "no W (width) token"),
        ("YUV4MPEG2 W320", "no H (height) token"),
        ("YUV4MPEG2 W0 H240", "width '0' is not a positive number"),
        ("YUV4MPEG2 W320 H-5", "height '-5' is not a positive number"),
        ("YUV4MPEG2 W99999999999 H2", "frame width 99999999999 is over the limit of"),
        ("YUV4MPEG2 W100000 H100000", "a 100000x100000 frame is larger than the limit"),
        ("YUV4MPEG2 W320 H240 C411", "unsupported YUV4MPEG2 chroma C411"),
        ("YUV4MPEG2 W320 H240 C420p10", "more than 8 bits a sample"),
        ("YUV4MPEG2 W320 H240 Cmono16", "more than 8 bits a sample"),
        ("YUV4MPEG W320 H240", "not a YUV4MPEG2 stream"),
    ])
    func refused(line: String, cause: String) {
        #expect {
            _ = try Self.header(line)
        } throws: { error in
            (error as? DigitError)?.message.contains(cause) == true
        }
    }
}
