@testable import DigitKit
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

    /// Expects `second`, given after `first`, to stand: marked, with its tensor.
    static func expectTaken(_ first: Prediction, _ second: Prediction, sourceLocation: SourceLocation = #_sourceLocation) {
        let taken = SecondLook.answer(first, for: Self.first, warnings: [],
                                      second: SecondLook.Taken(tensor: Self.again, prediction: second, warning: .locatedInkAlone))
        #expect(taken.prediction == second, sourceLocation: sourceLocation)
        #expect(taken.warnings == [.locatedInkAlone], sourceLocation: sourceLocation)
        #expect(taken.tensor == Self.again, sourceLocation: sourceLocation)
        #expect(Classification(prediction: taken.prediction, warnings: taken.warnings, rule: UncertaintyRule()).isUncertain,
                sourceLocation: sourceLocation)
    }

    /// Expects `first` to stand with its own warnings and tensor, whatever `second` says.
    static func expectKept(_ first: Prediction, _ second: Prediction?, sourceLocation: SourceLocation = #_sourceLocation) {
        let kept = SecondLook.answer(first, for: Self.first, warnings: [.severalDigits],
                                     second: second.map { SecondLook.Taken(tensor: Self.again, prediction: $0, warning: .locatedInkAlone) })
        #expect(kept.prediction == first, sourceLocation: sourceLocation)
        #expect(kept.warnings == [.severalDigits], sourceLocation: sourceLocation)
        #expect(kept.tensor == Self.first, sourceLocation: sourceLocation)
    }

    static let rejected = prediction(digit: 3, 0.02, notADigit: 0.95)

    @Test("after 'not a digit' the second answer stands only as a digit more probable than half; a confident digit stands")
    func answer() {
        let digit = Self.prediction(digit: 7, 0.7, notADigit: 0.05)
        Self.expectTaken(Self.rejected, digit)
        // After "not a digit" the second stands whatever digit the first ranked highest.
        Self.expectTaken(Self.rejected, Self.prediction(digit: 3, 0.7, notADigit: 0.05))
        Self.expectKept(Self.rejected, Self.prediction(digit: 7, 0.45, notADigit: 0.05))
        Self.expectKept(Self.rejected, Self.prediction(digit: 7, 0.04, notADigit: 0.92))
        Self.expectKept(Self.prediction(digit: 1, 0.99, notADigit: 0.0), digit)
        Self.expectKept(Self.rejected, nil)
    }

    @Test("after a doubtful digit the second answer stands only as another digit, more probable than half and than the first")
    func answerAfterDoubt() {
        let doubtful = Self.prediction(digit: 5, 0.45, notADigit: 0.05)
        Self.expectTaken(doubtful, Self.prediction(digit: 3, 0.9, notADigit: 0.02))
        // Mostly "not a digit", though not enough to answer so: doubtful too.
        Self.expectTaken(Self.prediction(digit: 4, 0.3, notADigit: 0.6), Self.prediction(digit: 9, 0.7, notADigit: 0.1))
        Self.expectKept(Self.prediction(digit: 2, 0.7, notADigit: 0.02), Self.prediction(digit: 8, 0.6, notADigit: 0.02))
        Self.expectKept(Self.prediction(digit: 3, 0.3, notADigit: 0.1), Self.prediction(digit: 8, 0.45, notADigit: 0.1))
        Self.expectKept(doubtful, Self.rejected)
        // An agreeing look leaves the answer as it was, unmarked by it.
        Self.expectKept(doubtful, Self.prediction(digit: 5, 0.99, notADigit: 0.0))
        // 0.85 is not doubtful: a surer second answer does not replace it.
        Self.expectKept(Self.prediction(digit: 1, 0.85, notADigit: 0.02), Self.prediction(digit: 7, 0.95, notADigit: 0.02))
    }

    @Test("a doubtful digit asks for a second look only where the locator saw all of the subject")
    func doubtAsksWhereLocated() throws {
        let image = try Self.ruledZero()
        let stages = try Self.classifier().preprocessor.stages(for: image)
        let look = try #require(stages.secondLook)
        #expect(look.asksAfterDoubt)
        let doubtful = Self.prediction(digit: 6, 0.6, notADigit: 0.05)
        let sure = Self.prediction(digit: 6, 0.85, notADigit: 0.05)
        #expect(look.tensor(after: doubtful) != nil)
        #expect(look.tensor(after: sure) == nil)

        // Where the locator saw part of a fine stroke, its ink alone misses
        // the rest: only "not a digit" asks.
        guard case .located(let ink) = look.subject else { Issue.record("not a look at the located ink"); return }
        let partial = SecondLook(ink: ink, decision: .rulesBeyondLocated, read: look.read)
        #expect(!partial.asksAfterDoubt)
        #expect(partial.tensor(after: doubtful) == nil)
        #expect(partial.tensor(after: Self.rejected) != nil)
    }

    @Test("a look taken carries its tensor, the model's answer and its own warning; not taken, the model is not asked")
    func take() throws {
        let stages = try Self.classifier().preprocessor.stages(for: Self.ruledZero())
        let look = try #require(stages.secondLook)
        let second = Self.prediction(digit: 0, 0.9, notADigit: 0.02)
        var asked: [DigitTensor] = []
        let taken = try #require(look.take(after: Self.rejected) { asked.append($0); return second })
        #expect(asked == [taken.tensor])
        #expect(taken.tensor == look.tensor(after: Self.rejected))
        #expect(taken.prediction == second)
        #expect(taken.warning == look.warning)
        #expect(SecondLook.answer(Self.rejected, for: Self.first, warnings: [], second: taken).warnings == [.locatedInkAlone])

        asked = []
        #expect(look.take(after: Self.prediction(digit: 0, 0.95, notADigit: 0.01)) { asked.append($0); return second } == nil)
        #expect(asked.isEmpty)
        // A model that gives no prediction (a batch that came back short): no look taken.
        #expect(look.take(after: Self.rejected) { _ in nil } == nil)

        // A window's look carries its own warning to the answer.
        let window = SecondLook(insideWindow: WindowInkTests.map(WindowInkTests.window), of: WindowInkTests.plate(WindowInkTests.bar),
                                read: WindowInkTests.windowBox)
        let inside = try #require(window.take(after: Self.rejected) { _ in second })
        #expect(inside.warning == .insideWindow)
        #expect(SecondLook.answer(Self.rejected, for: Self.first, warnings: [.severalDigits], second: inside).warnings
                == [.severalDigits, .insideWindow])
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

    /// Expects `classifier` to answer `image` with `digit`, marked uncertain
    /// by `warning` alone, one picture at a time and in a batch alike.
    static func expectAnswered(_ image: GrayImage, named name: String, digit: Int, warning: PreprocessingWarning,
                               by classifier: DigitClassifier, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let answer = try classifier.classification(of: image)
        #expect(answer.prediction?.digit == digit, sourceLocation: sourceLocation)
        #expect(answer.warnings == [warning], sourceLocation: sourceLocation)
        #expect(answer.isUncertain, sourceLocation: sourceLocation)
        let batch = try classifier.classify([.image(image, name: name)])
        #expect(batch.first?.prediction == answer.prediction, sourceLocation: sourceLocation)
        #expect(batch.first?.warnings == [warning], sourceLocation: sourceLocation)
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
