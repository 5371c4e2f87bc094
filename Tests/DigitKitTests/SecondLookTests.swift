import DigitKit
import Foundation
import Testing
import TestSupport

@Suite("A second look at the located ink alone")
struct SecondLookTests {
    /// A prediction of an 11-class model: `digit` at `probability`, "not a
    /// digit" at `notADigit`, the rest spread over the other digits.
    static func prediction(digit: Int, _ probability: Double, notADigit: Double) -> Prediction {
        let rest = (1 - probability - notADigit) / 9
        var probabilities = [Double](repeating: rest, count: 10)
        probabilities[digit] = probability
        return Prediction(logProbabilities: (probabilities + [notADigit]).map { Float(log(max($0, 1e-9))) })
    }

    static let first = DigitTensor.blank
    static let again = try! DigitTensor(values: [Float](repeating: 0.5, count: DigitTensor.count))

    @Test("the second answer stands only after 'not a digit', and only as a digit more probable than half")
    func answer() {
        let rejected = Self.prediction(digit: 3, 0.02, notADigit: 0.95)
        let digit = Self.prediction(digit: 7, 0.7, notADigit: 0.05)
        let taken = SecondLook.answer(rejected, for: Self.first, warnings: [], second: (Self.again, digit))
        #expect(taken.prediction == digit)
        #expect(taken.warnings == [.locatedInkAlone])
        #expect(taken.tensor == Self.again)
        #expect(Classification(prediction: taken.prediction, warnings: taken.warnings, rule: UncertaintyRule()).isUncertain)

        let doubtful = Self.prediction(digit: 7, 0.45, notADigit: 0.05)
        let rejectedAgain = Self.prediction(digit: 7, 0.04, notADigit: 0.92)
        let confident = Self.prediction(digit: 1, 0.99, notADigit: 0.0)
        for (first, second) in [(rejected, doubtful), (rejected, rejectedAgain), (confident, digit)] {
            let kept = SecondLook.answer(first, for: Self.first, warnings: [.severalDigits], second: (Self.again, second))
            #expect(kept.prediction == first)
            #expect(kept.warnings == [.severalDigits])
            #expect(kept.tensor == Self.first)
        }
        #expect(SecondLook.answer(rejected, for: Self.first, warnings: [], second: nil).prediction == rejected)
    }

    /// The committed photo of a 0 on a desk with a dark ruled line drawn
    /// across the whole picture, through the digit.
    static func ruledZero() throws -> GrayImage {
        let path = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/photos/desk-015-0.jpg").path
        let image = try ImageDecoder.forClassification.decode(fileAtPath: path)
        var pixels = image.pixels
        let top = image.height * 45 / 100, thick = max(2, image.height / 60)
        for y in top..<(top + thick) {
            for x in 0..<image.width { pixels[y * image.width + x] = min(pixels[y * image.width + x], 70) }
        }
        return try GrayImage(width: image.width, height: image.height, pixels: pixels)
    }

    static func classifier() throws -> DigitClassifier {
        try DigitClassifier(model: NumberFixtures.model.get(), preprocessor: Preprocessor(locator: NumberFixtures.locator.get()))
    }

    @Test("a ruled line through a photo's 0: the rules' ink is not a digit, the located ink is a 0, marked")
    func ruledLineThroughDigit() throws {
        let image = try Self.ruledZero()
        let classifier = try Self.classifier()
        let stages = try classifier.preprocessor.stages(for: image)
        #expect(stages.inkDecision == .rulesWhereLocated)
        let first = try classifier.model.predict(#require(stages.tensor))
        #expect(first.isNotADigit)
        // Unwrapped in two steps, so that a failure names the tensor, not a dump of the located ink.
        let again = stages.secondLook?.tensor(after: first)
        let second = try #require(again, "no second look, or no digit in the located ink")
        #expect(try classifier.model.predict(second).digit == 0)

        let answer = try classifier.classification(of: image)
        #expect(answer.prediction?.digit == 0)
        #expect(answer.warnings == [.locatedInkAlone])
        #expect(answer.isUncertain)

        // The batch run takes the same second look, and reports the tensor it classified.
        let batch = try classifier.classify([.image(image, name: "ruled")])
        #expect(batch.first?.prediction == answer.prediction)
        #expect(batch.first?.warnings == [.locatedInkAlone])
        #expect(batch.first?.tensor == second)
    }

    @Test("the same photo without the line is answered on the first look; without a locator there is no second")
    func noSecondLookNeeded() throws {
        let path = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/photos/desk-015-0.jpg").path
        let plain = try ImageDecoder.forClassification.decode(fileAtPath: path)
        let answer = try Self.classifier().classification(of: plain)
        #expect(answer.prediction?.digit == 0)
        #expect(!answer.warnings.contains(.locatedInkAlone))
        #expect(try Preprocessor().stages(for: Self.ruledZero()).secondLook == nil)
    }
}
