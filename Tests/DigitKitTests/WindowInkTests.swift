@testable import DigitKit
import Foundation
import Testing
import TestSupport

@Suite("A digit inside a window the locator took for the ink")
struct WindowInkTests {
    /// A plate at `plate` with a window at `window` from (4, 4) to (27,
    /// 35), and inside it the pixels `inside` draws at `digit`.
    static func plate(plate: Double = 200, window: Double = 30, digit: Double = 230, _ inside: (Int, Int) -> Bool) -> Raster {
        let width = 32, height = 40
        var values = [Double](repeating: plate, count: width * height)
        for y in 4...35 {
            for x in 4...27 { values[y * width + x] = inside(x, y) ? digit : window }
        }
        return Raster(width: width, height: height, values: values)
    }

    /// An ink map of the pixels `ink` is true of, all at 1.
    static func map(width: Int = 32, height: Int = 40, _ ink: (Int, Int) -> Bool) -> InkMap {
        let indices = (0..<(width * height)).filter { ink($0 % width, $0 / width) }
        return InkMap(width: width, height: height, indices: indices, values: Array(repeating: 1, count: indices.count))
    }

    static func bar(_ x: Int, _ y: Int) -> Bool { (14...17).contains(x) && (10...29).contains(y) }
    static func window(_ x: Int, _ y: Int) -> Bool { (4...27).contains(x) && (4...35).contains(y) }
    static let windowBox = BoundingBox(minX: 4, minY: 4, maxX: 27, maxY: 35)
    static let barBox = BoundingBox(minX: 14, minY: 10, maxX: 17, maxY: 29)

    @Test("the window's light bar is the digit, at full resolution; the plate and the window are left out")
    func barInWindow() throws {
        let digit = try #require(WindowInk.digit(in: Self.map(Self.window), gray: Self.plate(Self.bar)))
        #expect(digit.indices == Self.map(Self.bar).indices)
        #expect(digit.values.allSatisfy { $0 == 1 })
        // The locator's map with the bar as a hole in the window says the same.
        let holed = WindowInk.digit(in: Self.map { Self.window($0, $1) && !Self.bar($0, $1) }, gray: Self.plate(Self.bar))
        #expect(holed?.indices == digit.indices)
    }

    @Test("the other way round: a dark digit in a light window on a dark plate")
    func darkDigitInLightWindow() throws {
        let digit = WindowInk.digit(in: Self.map(Self.window), gray: Self.plate(plate: 40, window: 220, digit: 20, Self.bar))
        #expect(digit?.indices == Self.map(Self.bar).indices)
    }

    @Test("levels between whole grey levels fall on the side Otsu's split counts them on")
    func fractionalLevels() throws {
        // Otsu's level is a whole grey level; the window's 100.5 lies in
        // its bin, the lower class, though it is above the level itself.
        let digit = WindowInk.digit(in: Self.map(Self.window), gray: Self.plate(plate: 100.5, window: 100.5, digit: 199.7, Self.bar))
        #expect(digit?.indices == Self.map(Self.bar).indices)
    }

    @Test("a digit cut by the window's edge (a wheel half turned) is read; a plate's rim along the box's edge is not")
    func cutDigitAndRim() throws {
        let cut = { (x: Int, y: Int) in (14...17).contains(x) && (16...35).contains(y) }
        let rim = { (x: Int, y: Int) in x == 4 && (8...31).contains(y) }
        let digit = try #require(WindowInk.digit(in: Self.map(Self.window), gray: Self.plate { cut($0, $1) || rim($0, $1) }))
        #expect(digit.indices == Self.map(cut).indices)
    }

    @Test("no window: a ring (a 0's ink leaves its box's corners empty), a hollow frame, a small box, an empty window, specks")
    func noWindow() {
        let ring = Self.map { x, y in
            let (dx, dy) = (Double(x) - 15.5, Double(y) - 19.5)
            let r = (dx * dx) / (11 * 11) + (dy * dy) / (15 * 15)
            return r <= 1 && r >= 0.4
        }
        #expect(WindowInk.digit(in: ring, gray: Self.plate(Self.bar)) == nil)
        let frame = Self.map { x, y in Self.window(x, y) && !((6...25).contains(x) && (6...33).contains(y)) }
        #expect(WindowInk.digit(in: frame, gray: Self.plate(Self.bar)) == nil)
        let small = Self.map { x, y in (10...20).contains(x) && (10...29).contains(y) }
        #expect(WindowInk.digit(in: small, gray: Self.plate(Self.bar)) == nil)
        #expect(WindowInk.digit(in: Self.map(Self.window), gray: Self.plate { _, _ in false }) == nil)
        let specks = { (x: Int, y: Int) in (15...16).contains(x) && ((8...9).contains(y) || (30...31).contains(y)) }
        #expect(WindowInk.digit(in: Self.map(Self.window), gray: Self.plate(specks)) == nil)
    }

    @Test("the window look is asked after 'not a digit' and after a doubtful digit, not after a sure one")
    func asks() throws {
        let look = SecondLook(insideWindow: Self.map(Self.window), of: Self.plate(Self.bar), read: Self.windowBox)
        #expect(look.warning == .insideWindow)
        #expect(look.tensor(after: SecondLookTests.rejected) != nil)
        #expect(look.tensor(after: SecondLookTests.prediction(digit: 0, 0.6, notADigit: 0.05)) != nil)
        #expect(look.tensor(after: SecondLookTests.prediction(digit: 0, 0.95, notADigit: 0.01)) == nil)
        // No window and no other located ink, no tensor, whatever the first answer.
        let none = SecondLook(insideWindow: Self.map(Self.bar), of: Self.plate(Self.bar), read: Self.barBox)
        #expect(none.tensor(after: SecondLookTests.rejected) == nil)
    }

    @Test("a meter crop (Tests/Tools/make_window_fixtures.py) whose located ink is the window: not a digit on the first look, the digit inside on the second",
          arguments: ["window-liberation-7.png"])
    func meterCrop(file: String) throws {
        let expected = Int(String(file.dropLast(4).last!))!
        let image = try ImageDecoder.forClassification.decode(fileAtPath: Fixtures.path("windows/\(file)"))
        let classifier = try SecondLookTests.classifier()
        let stages = try classifier.preprocessor.stages(for: image)
        #expect(stages.inkDecision.takesLocatedInk)
        #expect(try classifier.model.predict(#require(stages.tensor)).isNotADigit)
        #expect(stages.secondLook?.warning == .insideWindow)
        try SecondLookTests.expectAnswered(image, named: file, digit: expected, warning: .insideWindow, by: classifier)
    }

    @Test("meter crops whose window step 2 finds in its light plate: the digit is read at the first look, unmarked",
          arguments: ["window-dejavu-0.png", "window-dejavu-3.png", "window-dejavu-large-5.png"])
    func windowFoundFirst(file: String) throws {
        let expected = Int(String(file.dropLast(4).last!))!
        let image = try ImageDecoder.forClassification.decode(fileAtPath: Fixtures.path("windows/\(file)"))
        let classifier = try SecondLookTests.classifier()
        var analysis = PipelineAnalysis()
        let stages = try classifier.preprocessor.stages(for: image, into: &analysis)
        let paper = try #require(analysis.decision(of: .paper))
        #expect(paper.text.hasPrefix("window in a light frame found at"), "\(paper.text)")
        let located = try #require(analysis.decision(of: .inkLocator))
        #expect(located.text.hasSuffix("what it sees outside the window is left out"), "\(located.text)")
        #expect(stages.inverted == false)
        #expect(!stages.inkDecision.takesLocatedInk)
        let answer = try classifier.classification(of: image)
        #expect(answer.prediction?.digit == expected)
        #expect(answer.warnings.isEmpty)
        #expect(!answer.isUncertain)
    }

    @Test("read does not look for a window: a meter's row of windows is one number")
    func readLooksForNoWindow() throws {
        let image = try ImageDecoder.forClassification.decode(fileAtPath: Fixtures.path("windows/window-dejavu-0.png"))
        var number = PipelineAnalysis(), digit = PipelineAnalysis()
        _ = try Preprocessor().inkAndLocated(for: image, into: &number, oneDigit: false)
        _ = try Preprocessor().inkAndLocated(for: image, into: &digit)
        #expect(number.decision(of: .paper)?.text == "no sheet on a desk, the whole picture is analysed")
        #expect(digit.decision(of: .paper)?.text.hasPrefix("window in a light frame found at") == true)
    }

    @Test("the rules alone equal the Python reference within 1e-5 on the meter crops, whose window both find")
    func matchesReference() throws {
        let rows = try Fixtures.tsv("windows/reference.tsv")
        let tensors = try Fixtures.floats("windows/reference.f32")
        #expect(rows.count == 4 && tensors.count == rows.count * 784)
        for (i, row) in rows.enumerated() {
            let image = try PNGDecoder().decode(fileAtPath: Fixtures.path("windows/\(row[0])"))
            var analysis = PipelineAnalysis()
            let stages = try Preprocessor().stages(for: image, into: &analysis)
            #expect(analysis.decision(of: .paper)?.text.hasPrefix("window in a light frame found at") == true, "\(row[0])")
            let tensor = try #require(stages.tensor, "\(row[0])")
            #expect(row[1] == "1", "\(row[0]): the reference finds no digit")
            let worst = zip(tensor.values, tensors[(i * 784)..<((i + 1) * 784)]).map { abs($0 - $1) }.max()!
            #expect(worst <= 1e-5, "\(row[0]): largest difference \(worst)")
        }
    }

    @Test("the located ink of the committed photos of digits on paper is no window")
    func photosAreNoWindows() throws {
        let preprocessor = try SecondLookTests.classifier().preprocessor
        let files = try FileManager.default.contentsOfDirectory(atPath: Fixtures.path("photos")).filter { $0.hasSuffix(".jpg") }.sorted()
        var located = 0
        for file in files.prefix(60) {
            let stages = try preprocessor.stages(for: ImageDecoder.forClassification.decode(fileAtPath: Fixtures.path("photos/\(file)")))
            guard let probabilities = stages.located else { continue }
            located += 1
            #expect(WindowInk.digit(in: LocatedInk.inkMap(of: probabilities), gray: stages.gray) == nil, "\(file)")
        }
        #expect(located >= 30)
    }
}
