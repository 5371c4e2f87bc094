@testable import DigitKit
import Testing
import TestSupport

/// Where the rules find no ink in the whole picture but the locator sees
/// some, the rules look again around the located ink (`LocatedRegionStage`):
/// a note on a checked cloth, whose contrast sets a noise threshold the
/// pen's ink does not rise above.
@Suite("the rules again around located ink")
struct LocatedRegionTests {
    /// A 320x240 checked cloth (24-px checks, grey levels 70, 140 and 225),
    /// a light note (230) in the middle, and Examples/seven.png's 7 three
    /// times its size in dark ink (30) on the note.
    static func noteOnCloth() throws -> GrayImage {
        try PaintedScene.make(width: 320, height: 240, background: { x, y in
            let (across, down) = ((x / 24) % 2 == 0, (y / 24) % 2 == 0)
            if (100..<220).contains(x) && (60..<180).contains(y) { return 230 }
            return across && down ? 70 : across || down ? 140 : 225
        }, digits: [PaintedScene.Digit("seven.png", at: 118, 78, ink: 30)])
    }

    @Test("a note on a checked cloth: the rules alone find no ink; with the locator, read and classify find the 7 on the note")
    func noteOnCheckedCloth() throws {
        let image = try Self.noteOnCloth()
        let model = try NumberFixtures.model.get(), locator = try NumberFixtures.locator.get()
        #expect(Preprocessor().inkMap(for: image).map == nil)
        #expect(try NumberReader(model: model).read(image).text == nil)

        let reading = try NumberFixtures.reader().read(image)
        #expect(reading.text == "7")
        let stages = try Preprocessor(locator: locator).stages(for: image)
        #expect(stages.inkDecision == .rulesWhereLocated)
        let region = try #require(stages.analysis.decisions.last { $0.step == .paper })
        #expect(region.text.hasPrefix("no ink stood out of the whole picture, the locator saw some"))
        // Steps 2 to 6 ran again after step 7: marked, and indented under it so the numbers read in order.
        let again = stages.analysis.decisions.filter(\.again)
        #expect(again.map(\.step) == [.paper, .background, .polarity, .strokeWidth, .standOutInk])
        #expect(stages.analysis.decisions.prefix { !$0.again }.last?.step == .inkLocator)
        #expect(again.allSatisfy { $0.line.hasPrefix("   \($0.step.rawValue). ") })
        #expect(stages.analysis.decisions.filter { !$0.again }.map(\.step.rawValue) == stages.analysis.decisions.filter { !$0.again }.map(\.step.rawValue).sorted())
        let box = try #require(stages.paper)
        // Around the 7 (drawn over x 118-201, y 78-161), a small part of the picture.
        #expect(box.minX <= 130 && box.maxX >= 190 && box.minY <= 95 && box.maxY >= 150, "\(box)")
        #expect(box.width * box.height * 4 < image.width * image.height, "\(box)")
        let prediction = try #require(DigitClassifier(model: model, preprocessor: Preprocessor(locator: locator))
            .classification(of: image).prediction)
        #expect(prediction.digit == 7)
    }

    @Test("the region is the located box grown by half its longer side, inside the picture; none where the locator sees nothing")
    func regionAroundLocatedInk() throws {
        let (width, height) = (100, 80)
        var values = [Double](repeating: 0, count: width * height)
        for y in 30..<50 { for x in 80..<90 { values[y * width + x] = 0.9 } }
        let located = LocatedInk(probabilities: Raster(width: width, height: height, values: values), peak: 0.9, inkPixels: 40, pixelSize: 1)
        var analysis = PipelineAnalysis()
        let region = try #require(LocatedRegionStage().run(located, into: &analysis))
        #expect(region.bounds == BoundingBox(minX: 70, minY: 20, maxX: 99, maxY: 59))
        #expect(analysis.decisions.count == 1)

        let faint = LocatedInk(probabilities: Raster(width: width, height: height, values: values.map { $0 / 2 }), peak: 0.45, inkPixels: 0, pixelSize: 1)
        var none = PipelineAnalysis()
        #expect(LocatedRegionStage().run(faint, into: &none) == nil)
        #expect(none.decisions.isEmpty)
    }
}
