@testable import DigitKit
import Foundation
import Testing
import TestSupport

/// `digits read` on a real drawing whose JPEG left a column of weak ink
/// along its edge, as tall as the digits: that glyph held no ink the digit
/// model is shown, so it had no reading at all, and the process stopped
/// (a force unwrap in PieceCountChoice). It is not a digit; the picture
/// reads as the 172 it shows.
@Suite("digits read on faint glyphs")
struct FaintGlyphReadingTests {
    /// A 115x26 white-on-black canvas drawing of "172" from a public
    /// repository, its column 0 a faint grey line.
    static let drawing = Fixtures.path("hostile/read-crash-172.jpg")
    static let numbers = Fixtures.path("numbers")

    @Test("the drawing reads as 172, in text and JSON, exit 0")
    func drawingReads() throws {
        let text = try CLI.digits(["read", Self.drawing])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stderr.isEmpty)
        #expect(text.stdoutLines.count == 1)
        #expect(text.stdoutLines.first?.hasPrefix("\(Self.drawing): 172 (") == true, "\(text.stdout)")
        let json = try CLI.digits(["read", "--json", Self.drawing])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdoutLines.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["text"] as? String == "172")
        let digits = try #require(object["digits"] as? [[String: Any]])
        #expect(digits.map { $0["digit"] as? Int } == [1, 7, 2])
    }

    @Test("a large glyph of weak ink only neither counts as a digit nor makes the real digit beside it look faint")
    func weakGlyphBesideDigit() throws {
        // A 30x40 block of weak ink (0.05 of typical ink), and 12 columns to its right a 3x40 bar of strong ink, a tenth its area.
        let (width, height) = (50, 44)
        var pixels: [(index: Int, value: Double)] = []
        for y in 2..<42 {
            for x in 2..<32 { pixels.append((y * width + x, 0.05)) }
            for x in 44..<47 { pixels.append((y * width + x, 1)) }
        }
        pixels.sort { $0.index < $1.index }
        let map = InkMap(width: width, height: height, indices: pixels.map(\.index), values: pixels.map(\.value))
        let ink = try #require(NumberInk(map))
        #expect(ink.glyphs.count == 2)
        let layout = NumberLayout(ink)
        #expect(layout.digitGlyphs.map { ink.glyphs[$0].box.minX } == [44])
    }

    @Test("among other pictures in one --json run: every picture gets its result, in order")
    func drawingAmongOthers() throws {
        let others = ["\(Self.numbers)/negative-001.png", "\(Self.numbers)/decimal-000.png"]
        let files = [others[0], Self.drawing, others[1], Self.drawing]
        for threads in ["1", "2"] {
            let result = try CLI.digits(["read", "--json", "--threads", threads] + files)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.isEmpty)
            let objects = try result.stdoutLines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
            #expect(objects.map { $0["file"] as? String } == files)
            #expect(objects.map { $0["text"] as? String } == ["-830", "172", "386.96", "172"])
        }
    }
}
