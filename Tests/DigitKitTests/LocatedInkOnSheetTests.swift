@testable import DigitKit
import Testing
import TestSupport

/// Where step 2 found a sheet on a desk, only the sheet is analysed: what
/// the locator sees off it (a pencil, a second digit chalked on the desk)
/// is left out, unless it sees nothing on the sheet (`LocatedInk.onSheet`).
@Suite("located ink off a found sheet")
struct LocatedInkOnSheetTests {
    /// A 100x80 map: `onSheet` over x 10-19, y 10-29 (inside `sheet`) and
    /// `offSheet` over x 70-79, y 10-29 (outside it).
    static let (width, height) = (100, 80)
    static let sheet = BoundingBox(minX: 0, minY: 0, maxX: 49, maxY: 79)

    static func located(onSheet: Double, offSheet: Double, pixelSize: Double = 2) -> LocatedInk {
        var values = [Double](repeating: 0, count: width * height)
        for y in 10..<30 {
            for x in 10..<20 { values[y * width + x] = onSheet }
            for x in 70..<80 { values[y * width + x] = offSheet }
        }
        return LocatedInk(probabilities: Raster(width: width, height: height, values: values),
                          peak: max(onSheet, offSheet), inkPixels: 100, pixelSize: pixelSize)
    }

    static func inside(_ box: BoundingBox, x: Int, y: Int) -> Bool {
        (box.minX...box.maxX).contains(x) && (box.minY...box.maxY).contains(y)
    }

    static func paper(_ box: BoundingBox?) -> PaperRegion {
        let mask = box.map { box in
            (0..<(width * height)).map { inside(box, x: $0 % width, y: $0 / width) }
        }
        return PaperRegion(width: width, height: height, mask: mask, borderBrightShare: 0)
    }

    @Test("ink off the sheet is left out; the pixel count is the sheet's ink in the locator's pixels")
    func leftOut() throws {
        let onSheet = Self.located(onSheet: 0.9, offSheet: 0.9).onSheet(Self.paper(Self.sheet))
        #expect(onSheet != nil, "what the locator sees off the sheet should be left out")
        guard let kept = onSheet else { return }
        #expect(kept.inkMap.indices.count == 200)
        #expect(kept.inkMap.indices.allSatisfy { $0 % Self.width < 50 })
        #expect(kept.probabilities.values.enumerated().allSatisfy { $0.offset % Self.width < 50 || $0.element == 0 })
        // 200 analysis pixels, 2x2 of them to one of the locator's.
        #expect(kept.inkPixels == 50)
        #expect(kept.peak == 0.9 && kept.pixelSize == 2)
    }

    @Test("the look stands when no sheet was found, nothing is seen off it, or nothing is seen on it")
    func stands() {
        #expect(Self.located(onSheet: 0.9, offSheet: 0.9).onSheet(Self.paper(nil)) == nil)
        #expect(Self.located(onSheet: 0.9, offSheet: LocatedInk.keepLevel - 0.05).onSheet(Self.paper(Self.sheet)) == nil)
        #expect(Self.located(onSheet: LocatedInk.seenPeak - 0.1, offSheet: 0.9).onSheet(Self.paper(Self.sheet)) == nil)
        #expect(Self.located(onSheet: 0, offSheet: 0.9).onSheet(Self.paper(Self.sheet)) == nil)
    }

    @Test("too few of the locator's pixels on the sheet: it sees nothing there, though its peak is high")
    func fewPixels() throws {
        // 200 analysis pixels, 5x5 of them to one of the locator's: 8, under `seenPixels`.
        let located = Self.located(onSheet: 0.9, offSheet: 0.9, pixelSize: 5)
        let within = try #require(located.within(Self.paper(Self.sheet)))
        #expect(within.inkPixels == 8 && within.peak == 0.9 && !within.seesInk)
        #expect(located.onSheet(Self.paper(Self.sheet)) == nil)
    }

    /// A 240x320 dark desk (60), a light sheet (230) in its lower left
    /// corner with Examples/seven.png's 7 three times its size in dark ink
    /// (30), and Examples/two.png's 2 chalked light (200) on the desk above right.
    static func sheetAndChalk() throws -> GrayImage {
        try PaintedScene.make(width: 240, height: 320, background: { x, y in x < 130 && y >= 170 ? 230 : 60 },
                              digits: [PaintedScene.Digit("seven.png", at: 25, 200, ink: 30),
                                       PaintedScene.Digit("two.png", at: 140, 40, ink: 200)])
    }

    @Test("a 7 on a sheet and a 2 chalked on the desk: the locator's map keeps the sheet's alone, says so, and the answer is the 7")
    func chalkOnDesk() throws {
        let image = try Self.sheetAndChalk()
        let model = try NumberFixtures.model.get(), locator = try NumberFixtures.locator.get()
        let stages = try Preprocessor(locator: locator).stages(for: image)
        let paper = try #require(stages.paper)
        #expect(paper.maxX < 130 && paper.minY >= 170, "\(paper)")
        let step = try #require(stages.analysis.decision(of: .inkLocator))
        #expect(step.text.hasSuffix("what it sees outside the sheet is left out"), "\(step.text)")
        let located = try #require(stages.located)
        #expect(located.values.enumerated().allSatisfy {
            Self.inside(paper, x: $0.offset % image.width, y: $0.offset / image.width) || $0.element == 0
        })
        let prediction = try #require(DigitClassifier(model: model, preprocessor: Preprocessor(locator: locator))
            .classification(of: image).prediction)
        #expect(prediction.digit == 7)
    }
}
