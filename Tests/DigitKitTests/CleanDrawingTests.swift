@testable import DigitKit
import Foundation
import Testing
import TestSupport

/// `CleanDrawing`: which pictures the rules read alone, without asking the
/// ink locator, and that doing so gives the answers asking it gives.
@Suite("Clean drawings left to the rules")
struct CleanDrawingTests {
    static let side = 160

    /// A picture `width` wide and `side` high: paper at `paper` with a
    /// gradient of `gradient` levels across it and noise up to `noise`
    /// levels (a seeded generator), with dark ink (30) wherever `ink(x, y)`.
    static func picture(width: Int = side, paper: Double = 235, gradient: Double = 0, noise: Double = 0,
                        ink: (Int, Int) -> Bool) throws -> GrayImage {
        var random = SplitMix64(seed: 7)
        var pixels = [UInt8](repeating: 0, count: width * side)
        for y in 0..<side {
            for x in 0..<width {
                let shade = paper - gradient * Double(x + y) / Double(width + side)
                let jitter = noise * (Double(random.next() % 2001) / 1000 - 1)
                pixels[y * width + x] = UInt8(max(0, min(255, (ink(x, y) ? 30 : shade) + jitter)).rounded())
            }
        }
        return try GrayImage(width: width, height: side, pixels: pixels)
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
        return CleanDrawing.ink(found.gray, rules: found.map, paper: found.sheet, inkIsDark: found.inverted) != nil
    }

    @Test("a digit on flat paper, or on paper with a gradient and a camera's noise, is a clean drawing")
    func cleanDigits() throws {
        #expect(Self.isClean(try Self.picture(ink: Self.seven)))
        #expect(Self.isClean(try Self.picture(gradient: 30, noise: 6, ink: Self.seven)))
    }

    /// What keeps a picture from being a clean drawing, each alone.
    enum Trouble: String, CaseIterable, CustomTestStringConvertible {
        case ruledLine = "a ruled line through the digit, to the edges"
        case atTheEdge = "the digit at the picture's edge"
        case secondDigit = "a second digit-sized mark far from the digit"
        case scrawl = "a scrawl too small to be a digit, over 3% of the ink"
        case blob = "a filled block"
        case blank = "a blank page"

        var testDescription: String { rawValue }

        func ink(_ x: Int, _ y: Int) -> Bool {
            switch self {
            case .ruledLine: CleanDrawingTests.seven(x, y) || (100..<102).contains(y)
            case .atTheEdge: CleanDrawingTests.seven(x + 48, y)
            case .secondDigit: CleanDrawingTests.seven(x, y) || ((250..<258).contains(x) && (30..<130).contains(y))
            case .scrawl: CleanDrawingTests.seven(x, y) || ((10..<13).contains(x) && (120..<150).contains(y))
            case .blob: (50..<110).contains(x) && (30..<130).contains(y)
            case .blank: false
            }
        }
    }

    @Test("not a clean drawing", arguments: Trouble.allCases)
    func notClean(_ trouble: Trouble) throws {
        // Wide enough for a mark beyond the digit's reach (half its longer side).
        #expect(!Self.isClean(try Self.picture(width: 320, ink: trouble.ink)))
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
        #expect(Preprocessor().inkMap(for: image).sheet.mask != nil, "step 2 finds the sheet")
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

    /// Step 9 takes a clean drawing's components from step 7's check, which
    /// labelled the same strong ink: its plain twin labels them again.
    @Test("on clean drawings, step 9's components taken from step 7 are those it finds afresh")
    func componentsTakenFromTheCheck() throws {
        let locator = try NumberFixtures.locator.get()
        let fixtures = RealWorldFixture.everyEighth()
        #expect(fixtures.count >= 30)
        var clean = 0
        for fixture in fixtures {
            let image = try ImageDecoder().decode(fileAtPath: fixture.path)
            let stages = try Preprocessor(locator: locator).stages(for: image)
            guard stages.inkDecision == .rulesOnCleanDrawing else { continue }
            clean += 1
            var unrecorded = PipelineAnalysis()
            // Steps 1 to 6 as `classify` runs them (a window in a light frame looked for too).
            let rules = try #require(Preprocessor().inkMap(for: image, into: &unrecorded, windows: true).map)
            unrecorded = PipelineAnalysis()
            let afresh = try #require(Preprocessor.digitAndField(of: InkExtractor.strong(rules), located: false, into: &unrecorded))
            let (sameInk, sameField) = (stages.ink == afresh.digit.ink, stages.field == afresh.field)
            #expect(sameInk, "\(fixture.file): the digit's ink")
            #expect(sameField, "\(fixture.file): the 28x28 field")
            #expect(stages.analysis.decision(of: .components)?.text == unrecorded.decision(of: .components)?.text, "\(fixture.file)")
        }
        #expect(clean * 2 >= fixtures.count, "\(clean) of \(fixtures.count) are clean drawings")
    }
}
