@testable import DigitKit
import Foundation
import Testing
import TestSupport

/// `CleanDrawing`: which pictures the rules read alone, without asking the
/// ink locator, and that doing so gives the answers asking it gives.
@Suite("Clean drawings left to the rules")
struct CleanDrawingTests {
    static let side = 160

    /// A `side`-square picture: paper at `paper` with a gradient of
    /// `gradient` levels across it and noise up to `noise` levels (a seeded
    /// generator), with dark ink (30) wherever `ink(x, y)` is true.
    static func picture(paper: Double = 235, gradient: Double = 0, noise: Double = 0,
                        ink: (Int, Int) -> Bool) throws -> GrayImage {
        var random = SplitMix64(seed: 7)
        var pixels = [UInt8](repeating: 0, count: side * side)
        for y in 0..<side {
            for x in 0..<side {
                let shade = paper - gradient * Double(x + y) / Double(2 * side)
                let jitter = noise * (Double(random.next() % 2001) / 1000 - 1)
                pixels[y * side + x] = UInt8(max(0, min(255, (ink(x, y) ? 30 : shade) + jitter)).rounded())
            }
        }
        return try GrayImage(width: side, height: side, pixels: pixels)
    }

    /// A 7 of 8-pixel strokes, its box at x 50-109, y 30-129.
    static func seven(_ x: Int, _ y: Int) -> Bool {
        let bar = (30..<38).contains(y) && (50..<110).contains(x)
        let stem = (38..<130).contains(y) && abs(x - (102 - (y - 38) * 40 / 92)) < 4
        return bar || stem
    }

    /// Whether the rules' ink of `image` (steps 1 to 6) makes a clean drawing.
    static func isClean(_ image: GrayImage) -> Bool {
        let found = Preprocessor().inkMap(for: image)
        return CleanDrawing.holds(found.gray, rules: found.map, paper: found.sheet, inkIsDark: found.inverted)
    }

    @Test("a digit on flat paper, or on paper with a gradient and a camera's noise, is a clean drawing")
    func cleanDigits() throws {
        #expect(Self.isClean(try Self.picture(ink: Self.seven)))
        #expect(Self.isClean(try Self.picture(gradient: 30, noise: 6, ink: Self.seven)))
    }

    @Test("a ruled line, a digit at the edge, a second mark, a blob or a blank page is not", arguments: [
        "ruled line", "at the edge", "second mark", "blob", "blank",
    ])
    func notClean(_ trouble: String) throws {
        let ink: (Int, Int) -> Bool = switch trouble {
        case "ruled line": { x, y in Self.seven(x, y) || (100..<102).contains(y) }
        case "at the edge": { x, y in Self.seven(x + 48, y) }
        case "second mark": { x, y in Self.seven(x, y) || ((10..<30).contains(x) && (120..<150).contains(y) && x - 10 < 3) }
        case "blob": { x, y in (50..<110).contains(x) && (30..<130).contains(y) }
        default: { _, _ in false }
        }
        #expect(!Self.isClean(try Self.picture(ink: ink)), "\(trouble)")
    }

    @Test("a stroke whose inside the map left out (only its rims kept) is not all the ink")
    func rimsOnly() {
        // A 24-pixel bar of ink (30) on paper (235); the map holds its 3-pixel rims, or all of it.
        let width = 100, height = 100
        var values = [Double](repeating: 235, count: width * height)
        var rims: [Int] = [], whole: [Int] = []
        for y in 20..<80 {
            for x in 38..<62 {
                values[y * width + x] = 30
                whole.append(y * width + x)
                if x < 41 || x >= 59 || y < 23 || y >= 77 { rims.append(y * width + x) }
            }
        }
        let gray = Raster(width: width, height: height, values: values)
        let box = BoundingBox(minX: 38, minY: 20, maxX: 61, maxY: 79)
        func map(_ indices: [Int]) -> InkMap {
            InkMap(width: width, height: height, indices: indices, values: Array(repeating: 1, count: indices.count))
        }
        #expect(CleanDrawing.missesNoInk(gray, digit: map(whole), box: box, inkIsDark: true))
        #expect(!CleanDrawing.missesNoInk(gray, digit: map(rims), box: box, inkIsDark: true))
    }

    @Test("a sheet on a desk is not a clean drawing, however clear its digit")
    func sheetOnDesk() throws {
        let image = try ImageDecoder().decode(fileAtPath: Fixtures.path("photos/desk-000-0.jpg"))
        #expect(!Self.isClean(image))
    }

    @Test("the locator is not asked of a clean drawing, and --steps says so; asked when told to be")
    func locatorNotAsked() throws {
        let locator = try NumberFixtures.locator.get()
        let image = try Self.picture(ink: Self.seven)
        let left = try Preprocessor(locator: locator).stages(for: image)
        #expect(left.inkDecision == .rulesOnCleanDrawing)
        #expect(left.analysis.decision(of: .inkLocator)?.text.hasPrefix("not asked") == true)
        #expect(left.located == nil && left.field != nil)
        var asking = Preprocessor(locator: locator)
        asking.leavesCleanDrawingsToRules = false
        let asked = try asking.stages(for: image)
        #expect(asked.inkDecision == .rulesWhereLocated)
        #expect(asked.located != nil)
    }

    /// The answer as `classify` prints it, the confidence left out.
    static func answer(_ classification: Classification) -> String {
        switch classification.outcome {
        case .digit(let prediction): "\(prediction.digit)\(classification.isUncertain ? ", uncertain" : "")"
        case .noDigit: "no digit found"
        case .notADigit: "not a digit"
        }
    }

    @Test("on the real-world pictures, leaving clean drawings to the rules gives the answers asking the locator gives")
    func sameAnswersAsAsking() throws {
        let model = try NumberFixtures.model.get(), locator = try NumberFixtures.locator.get()
        var asking = Preprocessor(locator: locator)
        asking.leavesCleanDrawingsToRules = false
        let fast = DigitClassifier(model: model, preprocessor: Preprocessor(locator: locator))
        let plain = DigitClassifier(model: model, preprocessor: asking)
        let fixtures = RealWorldFixture.all
        #expect(fixtures.count >= 250)
        var left = 0
        for fixture in fixtures {
            let image = try ImageDecoder().decode(fileAtPath: fixture.path)
            if try Preprocessor(locator: locator).stages(for: image).inkDecision == .rulesOnCleanDrawing { left += 1 }
            let (a, b) = (Self.answer(try fast.classification(of: image)), Self.answer(try plain.classification(of: image)))
            #expect(a == b, "\(fixture.file): \(a) left to the rules, \(b) asking the locator")
        }
        print("clean drawings left to the rules: \(left) of \(fixtures.count) real-world pictures")
        // Most of these pictures are drawing-app exports and scans: the fast path must be taken.
        #expect(left * 2 >= fixtures.count, "\(left) of \(fixtures.count)")
    }
}
