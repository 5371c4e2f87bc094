@testable import DigitKit
import Testing
import TestSupport

/// A decimal point is made by the pen that wrote the digits, so it is as
/// dark as they are; a dotted page's printed dot or a chip of a ruled line
/// on the baseline between two digits is fainter, and is not read as one.
@Suite("digits read: a decimal point is as dark as the digits")
struct PointInkTests {
    /// Three digit-sized blocks of full ink on rows 10-49 of a 90x60 map,
    /// and a 5x5 dot of `dot` ink on the baseline between the first two.
    static func map(dot: Double) -> InkMap {
        let width = 90
        var pixels: [(index: Int, value: Double)] = []
        for left in [10, 34, 58] {
            for y in 10..<50 {
                for x in left..<(left + 16) { pixels.append((y * width + x, 1)) }
            }
        }
        for y in 45..<50 {
            for x in 28..<33 { pixels.append((y * width + x, dot)) }
        }
        pixels.sort { $0.index < $1.index }
        return InkMap(width: width, height: 60, indices: pixels.map(\.index), values: pixels.map(\.value))
    }

    @Test("a dot on the baseline is a point when it is at least 0.8 as dark as the digits", arguments: [
        (1.0, true), (0.85, true), (0.75, false), (0.5, false),
    ])
    func dotInk(ink: Double, isPoint: Bool) throws {
        let number = try #require(NumberInk(Self.map(dot: ink)))
        let layout = NumberLayout(number)
        #expect(layout.digitGlyphs.count == 3)
        #expect(layout.marks.map(\.kind) == (isPoint ? [.decimalPoint] : []))
    }

    @Test("a committed number with a dot painted between its first two digits: a pen-dark dot is a point, a grey one is not")
    func paintedDot() throws {
        let reader = try NumberFixtures.reader()
        let picture = try #require(NumberFixtures.numbers.first { $0.kind == "spaced" && $0.condition == "paper" && $0.text.count >= 3 })
        let image = try ImageDecoder.forClassification.decode(fileAtPath: Fixtures.path("numbers/\(picture.file)"))
        let plain = try reader.read(image)
        #expect(plain.text == picture.text)
        let first = plain.characters[0].box, second = plain.characters[1].box
        let bottom = try #require(plain.characters.map { $0.box.y + $0.box.height }.max())
        let top = try #require(plain.characters.map(\.box.y).min())
        let radius = max(2, (bottom - top) / 14)
        let centre = (x: (first.x + first.width + second.x) / 2, y: bottom - radius - 1)
        let ink = try #require(image.pixels.min()), paper = try #require(image.pixels.max())
        func painted(_ level: UInt8) throws -> NumberReading {
            var pixels = image.pixels
            for y in (centre.y - radius)...(centre.y + radius) {
                for x in (centre.x - radius)...(centre.x + radius)
                where (x - centre.x) * (x - centre.x) + (y - centre.y) * (y - centre.y) <= radius * radius {
                    pixels[y * image.width + x] = level
                }
            }
            return try reader.read(try GrayImage(width: image.width, height: image.height, pixels: pixels))
        }
        let withPoint = String(picture.text.prefix(1)) + "." + String(picture.text.dropFirst())
        #expect(try painted(ink).text == withPoint)
        let grey = UInt8((Int(ink) + Int(paper)) / 2)
        #expect(try painted(grey).text == picture.text)
    }
}
