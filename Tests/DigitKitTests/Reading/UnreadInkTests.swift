@testable import DigitKit
import Testing
import TestSupport

/// Ink beside a number's digits that the reader reads as no character (a
/// 1 of which only a short piece stood out of a shadow or a grid line)
/// makes the reading warn, instead of a number short of a digit at full
/// confidence.
@Suite("digits read on ink it leaves unread")
struct UnreadInkTests {
    /// A map of `bars` (x, y, width, height) of strong ink on a 120x60 canvas.
    static func map(_ bars: [(x: Int, y: Int, width: Int, height: Int)]) -> InkMap {
        let width = 120
        var indices: [Int] = []
        for bar in bars {
            for y in bar.y..<(bar.y + bar.height) {
                for x in bar.x..<(bar.x + bar.width) { indices.append(y * width + x) }
            }
        }
        indices.sort()
        return InkMap(width: width, height: 60, indices: indices, values: indices.map { _ in 1 })
    }

    /// Three digit-sized blocks on rows 10-49.
    static let digits: [(x: Int, y: Int, width: Int, height: Int)] = [(10, 10, 16, 40), (34, 10, 16, 40), (58, 10, 16, 40)]

    @Test("a short stroke beside the last digit, on the line, is unread; it is not a digit")
    func shortStrokeBeside() throws {
        let ink = try #require(NumberInk(Self.map(Self.digits + [(84, 10, 5, 14)])))
        let layout = NumberLayout(ink)
        #expect(layout.digitGlyphs.count == 3)
        #expect(layout.unread.map { ink.glyphs[$0].box.minX } == [84])
    }

    @Test("specks, a dotted page's dots in a column, a stroke below the line or far away are not unread ink")
    func notUnread() throws {
        let others: [[(x: Int, y: Int, width: Int, height: Int)]] = [
            [(84, 20, 2, 2)],                      // a speck
            [(84, 10, 3, 3), (84, 47, 3, 3)],      // two dots, a line apart: one tall glyph of short strokes
            [(84, 51, 4, 8)],                      // under the line
            [(112, 10, 4, 12)],                    // more than a line's height beyond the last digit
            [(60, 51, 10, 3)],                     // under a digit's columns
        ]
        for extra in others {
            let ink = try #require(NumberInk(Self.map(Self.digits + extra)))
            let layout = NumberLayout(ink)
            #expect(layout.digitGlyphs.count == 3, "\(extra)")
            #expect(layout.unread.isEmpty, "\(extra)")
        }
    }

    @Test("a dash before the first digit: a minus from 0.15 to 0.85 down the line; unread ink elsewhere on the line; nothing above it")
    func dashBeforeFirstDigit() throws {
        // The digits fill rows 10-49 (a line 40 high) from x 30; the dash is
        // 20 wide and 4 high at x 6 (an eighth of a solid digit block's ink),
        // its middle at row top + 1.5.
        let digits = Self.digits.map { (x: $0.x + 20, y: $0.y, width: $0.width, height: $0.height) }
        for (top, minus, unread) in [(16, true, 0), (28, true, 0), (40, true, 0), (11, false, 1), (45, false, 1), (2, false, 0)] {
            let ink = try #require(NumberInk(Self.map(digits + [(6, top, 20, 4)])))
            let layout = NumberLayout(ink)
            #expect(layout.digitGlyphs.count == 3, "dash at row \(top)")
            #expect(layout.marks.map(\.kind) == (minus ? [.minus] : []), "dash at row \(top)")
            #expect(layout.unread.count == unread, "dash at row \(top)")
        }
    }

    @Test("a committed number with a short stroke painted beside it reads the same digits and warns")
    func paintedStroke() throws {
        let reader = try NumberFixtures.cuttingReader()
        let picture = try #require(NumberFixtures.numbers.first { $0.kind == "spaced" && $0.condition == "paper" })
        let image = try ImageDecoder.forClassification.decode(fileAtPath: Fixtures.path("numbers/\(picture.file)"))
        let plain = try reader.read(image)
        #expect(plain.text == picture.text)
        #expect(plain.warnings.isEmpty)
        let last = try #require(plain.characters.last?.box)
        let top = try #require(plain.characters.map(\.box.y).min())
        let lineHeight = try #require(plain.characters.map { $0.box.y + $0.box.height }.max()) - top
        let ink = try #require(image.pixels.min())
        // A 1 of which a thin trace stood out: two pixels wide, 0.6 of the line high, half a digit's width after the last digit.
        let stroke = (x: last.x + last.width + last.width / 2, width: 2, height: lineHeight * 3 / 5)
        var pixels = image.pixels
        for y in top..<(top + stroke.height) {
            for x in stroke.x..<(stroke.x + stroke.width) { pixels[y * image.width + x] = ink }
        }
        let painted = try reader.read(try GrayImage(width: image.width, height: image.height, pixels: pixels))
        #expect(painted.text == picture.text)
        #expect(painted.warnings == [.unreadInk])
    }
}
