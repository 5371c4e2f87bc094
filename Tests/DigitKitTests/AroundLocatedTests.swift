@testable import DigitKit
import Foundation
import Testing
import TestSupport

/// Where the rules' ink in the whole picture is other ink than the located,
/// the rules measure again around the located ink
/// (`Preprocessor.againAroundLocated`): a yellow note on a blue desk is
/// light "ink" to the whole picture, and the dark digit on it the paper.
@Suite("the rules again around the located digit")
struct AroundLocatedTests {
    static func stages(_ file: String) throws -> PreprocessingStages {
        let image = try ImageDecoder.forClassification.decode(fileAtPath: Fixtures.path("notes/\(file)"))
        return try Preprocessor(locator: NumberFixtures.locator.get()).stages(for: image)
    }

    @Test("a dark digit on a light note on a dark desk: measured again around it, inverted, and read",
          arguments: [("note-0009-9.png", 9), ("note-0024-4.png", 4)])
    func noteOnDarkDesk(file: String, digit: Int) throws {
        let stages = try Self.stages(file)
        let polarity = stages.analysis.decisions.filter { $0.step == .polarity }
        // The whole picture takes the note for light ink; around the digit, the ink is dark.
        #expect(polarity.map(\.again) == [false, true])
        #expect(polarity.first?.text.hasPrefix("kept as it is") == true)
        #expect(polarity.last?.text.hasPrefix("inverted") == true)
        let region = try #require(stages.analysis.decisions.last { $0.step == .paper })
        #expect(region.again && region.text.hasPrefix("the rules' ink in the whole picture is not the ink the locator sees"))
        #expect(stages.inkDecision == .rulesWhereLocated)
        #expect(stages.inverted == true)

        let path = Fixtures.path("notes/\(file)")
        let model = try NumberFixtures.model.get(), locator = try NumberFixtures.locator.get()
        let classification = try DigitClassifier(model: model, preprocessor: Preprocessor(locator: locator))
            .classification(of: ImageDecoder.forClassification.decode(fileAtPath: path))
        let prediction = try #require(classification.prediction)
        #expect(prediction.digit == digit)
        #expect(!classification.isUncertain, "\(classification)")
        #expect(try NumberFixtures.reader().read(ImageDecoder.forClassification.decode(fileAtPath: path)).text == "\(digit)")
    }

    /// A `width` x `height` ink map of the pixels where `ink(x, y)` holds.
    static func map(width: Int = 100, height: Int = 80, _ ink: (Int, Int) -> Bool) -> InkMap {
        let indices = (0..<(width * height)).filter { ink($0 % width, $0 / width) }
        return InkMap(width: width, height: height, indices: indices, values: indices.map { _ in 1 })
    }

    @Test("ink measured again stands only clear of the region's edges inside the picture, each component kept from taken whole")
    func clearOfEdges() {
        let region = BoundingBox(minX: 20, minY: 10, maxX: 69, maxY: 59)
        let digit = { (x: Int, y: Int) in (30...50).contains(x) && (20...45).contains(y) }
        #expect(LocatedRegionStage.isClear(Self.map(digit), of: Self.map(digit), in: region))
        // A pencil the locator marked in part runs on to the region's edge,
        // though step 8 kept only its part near the located ink.
        let pencil = { (x: Int, y: Int) in (30...69).contains(x) && (52...55).contains(y) }
        let partOfPencil = Self.map { (30...45).contains($0) && (52...55).contains($1) }
        #expect(!LocatedRegionStage.isClear(partOfPencil, of: Self.map(pencil), in: region))
        #expect(!LocatedRegionStage.isClear(partOfPencil, of: Self.map { pencil($0, $1) || digit($0, $1) }, in: region))
        let upright = Self.map { (40...43).contains($0) && (10...40).contains($1) }
        #expect(!LocatedRegionStage.isClear(upright, of: upright, in: region))
        // A component step 8 did not keep does not count.
        #expect(LocatedRegionStage.isClear(Self.map(digit), of: Self.map { pencil($0, $1) || digit($0, $1) }, in: region))
        // Where the region ends at the picture's edge, ink may touch it: a digit cropped tight.
        let atEdge = BoundingBox(minX: 0, minY: 0, maxX: 99, maxY: 79)
        let cropped = Self.map { (0...20).contains($0) && (50...79).contains($1) }
        #expect(LocatedRegionStage.isClear(cropped, of: cropped, in: atEdge))
        #expect(!LocatedRegionStage.isClear(Self.map { _, _ in false }, of: Self.map(digit), in: region))
    }

    @Test("around other ink, the region grows from the located digit, not from everything located")
    func regionFromLocatedDigit() throws {
        let (width, height) = (120, 100)
        var values = [Double](repeating: 0, count: width * height)
        for y in 20...50 { for x in 20..<40 { values[y * width + x] = 0.9 } }
        // A small stray mark far off, as a pen's end the locator marks too.
        for y in 90..<93 { for x in 110..<113 { values[y * width + x] = 0.9 } }
        let located = LocatedInk(probabilities: Raster(width: width, height: height, values: values), peak: 0.9,
                                 inkPixels: 629, pixelSize: 1)
        var analysis = PipelineAnalysis()
        let around = try #require(LocatedRegionStage(reason: .rulesInkElsewhere(oneDigit: true)).run(located, into: &analysis))
        // The digit's box, 20x31, grown by 16 (half of 31, rounded up) on each side.
        #expect(around.bounds == BoundingBox(minX: 4, minY: 4, maxX: 55, maxY: 66))
        #expect(analysis.decisions.first?.text.hasPrefix("the rules' ink in the whole picture is not the ink the locator sees") == true)
        // For a number (`read`), and where the rules found no ink, all the located ink: the mark may be another digit.
        for reason in [LocatedRegionStage.Reason.rulesInkElsewhere(oneDigit: false), .noRulesInk] {
            var whole = PipelineAnalysis()
            let everything = try #require(LocatedRegionStage(reason: reason).run(located, into: &whole))
            #expect(everything.bounds == BoundingBox(minX: 0, minY: 0, maxX: 119, maxY: 99))
        }
    }
}
