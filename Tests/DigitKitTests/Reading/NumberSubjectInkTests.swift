@testable import DigitKit
import Testing

/// `NumberSubjectInk.kept` on small hand-made maps: two digit strokes, a
/// ruled line through them, a decimal point and a minus sign the locator
/// did not mark, and a speck away from the number.
@Suite("A number's ink where the locator agrees")
struct NumberSubjectInkTests {
    static let width = 40, height = 20

    static func pixels(columns: ClosedRange<Int>, rows: ClosedRange<Int>) -> Set<Int> {
        Set(rows.flatMap { y in columns.map { y * width + $0 } })
    }

    /// Two strokes 12 rows tall, at columns 5-6 and 15-16.
    static let first = pixels(columns: 5...6, rows: 4...15), second = pixels(columns: 15...16, rows: 4...15)
    /// A ruled line through both strokes, within 1.5 times the number's
    /// width: one digit's rule (`LocatedInk.kept`) would keep it whole.
    static let line = pixels(columns: 3...19, rows: 12...12)
    static let point = pixels(columns: 10...11, rows: 14...15)
    static let minus = pixels(columns: 0...3, rows: 8...9)
    static let speck = pixels(columns: 34...35, rows: 2...3)

    /// The located ink: both strokes, except the first one's last two
    /// rows, and `also`.
    static func locatedInk(also: Set<Int> = []) -> LocatedInk {
        var values = [Double](repeating: 0.02, count: width * height)
        for index in first.union(second) where index / width < 14 || index % width > 10 { values[index] = 0.9 }
        for index in also { values[index] = 0.9 }
        return LocatedInk(probabilities: Raster(width: width, height: height, values: values), peak: 0.9, pixelSize: 1)
    }

    static var located: LocatedInk { locatedInk() }

    static func kept(_ ink: Set<Int>, locatedAlso also: Set<Int> = []) -> Set<Int> {
        let rules = InkMap(width: width, height: height, indices: ink.sorted(), values: ink.map { _ in 1 })
        return Set(NumberSubjectInk.kept(rules, located: locatedInk(also: also)).map.indices)
    }

    @Test("a stroke's end the locator missed stays; a line through the digits keeps only what crosses them")
    func lineThroughDigits() {
        // Each stroke alone is within reach of its blob: whole.
        #expect(Self.kept(Self.first.union(Self.second)) == Self.first.union(Self.second))
        // The line joins both into one component far beyond either blob: only
        // located pixels stay, so the first stroke's missed end goes with the line.
        let located = Self.first.filter { $0 / Self.width < 14 }.union(Self.second)
        #expect(Self.kept(Self.first.union(Self.second).union(Self.line)) == located)
    }

    @Test("a decimal point and a minus sign the locator missed stay; a speck away from the number does not")
    func punctuation() {
        let digits = Self.first.union(Self.second)
        let kept = Self.kept(digits.union(Self.point).union(Self.minus).union(Self.speck))
        #expect(kept == digits.union(Self.point).union(Self.minus))
    }

    @Test("a mark as tall as the digits, or past the number's box on the right, above or below, is not punctuation",
          arguments: [pixels(columns: 10...10, rows: 4...15), pixels(columns: 18...19, rows: 14...15),
                      pixels(columns: 10...11, rows: 1...2), pixels(columns: 10...11, rows: 17...18)])
    func notPunctuation(_ mark: Set<Int>) {
        #expect(Self.kept(Self.first.union(Self.second).union(mark)) == Self.first.union(Self.second))
    }

    @Test("a minus sign the locator marked at one end stays whole")
    func minusMarkedInPart() {
        let digits = Self.first.union(Self.second)
        let end = Self.pixels(columns: 3...3, rows: 8...9)
        #expect(Self.kept(digits.union(Self.minus), locatedAlso: end) == digits.union(Self.minus))
    }

    @Test("a stroke of the digits' height between them, marked at its foot only, stays whole; unmarked, it goes")
    func digitMarkedInPart() {
        let digits = Self.first.union(Self.second)
        let one = Self.pixels(columns: 10...10, rows: 4...15)
        #expect(Self.kept(digits.union(one), locatedAlso: Self.pixels(columns: 10...10, rows: 14...15)) == digits.union(one))
        #expect(Self.kept(digits.union(one)) == digits)
    }

    static func leftOut(_ ink: Set<Int>) -> Bool {
        let rules = InkMap(width: width, height: height, indices: ink.sorted(), values: ink.map { _ in 1 })
        return NumberSubjectInk.kept(rules, located: located).leftOut
    }

    @Test("a stroke of a digit's height on the line, a digit's spacing after the number, that the locator did not mark is left out")
    func strokeLeftOut() {
        let digits = Self.first.union(Self.second)
        #expect(!Self.leftOut(digits))
        #expect(Self.leftOut(digits.union(Self.pixels(columns: 21...22, rows: 5...15))))
        // Not a digit left out: a speck, a stroke far beyond the number, one under its line, one taller than the digits.
        for other in [Self.speck, Self.pixels(columns: 30...31, rows: 4...15), Self.pixels(columns: 21...22, rows: 14...19),
                      Self.pixels(columns: 21...22, rows: 0...19)] {
            #expect(!Self.leftOut(digits.union(other)), "\(other.sorted().first ?? -1)")
        }
    }
}
