import Testing
@testable import DigitKit
import TestSupport

/// On light paper the ink is dark (`PolarityDetector.isLight`): pictures from
/// the photo generator's other seeds on which the lit side of a shadow was
/// taken for bright ink, and a printed digit cropped tight that was read hollow.
@Suite("Light backgrounds")
struct LightBackgroundTests {
    static func picture(_ file: String) throws -> GrayImage {
        try ImageDecoder().decode(fileAtPath: Fixtures.path("light-paper/\(file)"))
    }

    @Test("a blank sheet under a shadow or on a desk: its lit part is not bright ink",
          arguments: ["blank-shadow-080.jpg", "blank-sticky-107.png"])
    func litPaperIsNotInk(_ file: String) throws {
        let stages = Preprocessor().process(try Self.picture(file))
        #expect(stages.inverted == true)
        #expect(stages.field == nil)
    }

    @Test("a printed 9 cropped tight on light paper is read as dark ink, not hollowed")
    func tightPrintedDigit() throws {
        #expect(Preprocessor().process(try Self.picture("tight-printed-9.jpg")).inverted == true)
        let classifier = DigitClassifier(model: try DigitModel(path: Fixtures.shippedModel))
        #expect(try classifier.classify(fileAtPath: Fixtures.path("light-paper/tight-printed-9.jpg"))?.digit == 9)
    }

    @Test("light means a median cell level of at least mid-grey; cells outside the paper do not count")
    func lightMeansMidGreyOrMore() {
        func grid(_ cells: [Double]) -> CellGrid<Double> { CellGrid(width: cells.count, height: 1, cells: cells) }
        #expect(PolarityDetector.isLight(background: grid([127, 127, 250, .nan, .nan])) == false)
        #expect(PolarityDetector.isLight(background: grid([128, 30, 200, .nan, .nan])) == true)
        #expect(PolarityDetector.isLight(background: grid([.nan, .nan])) == false)
    }
}
