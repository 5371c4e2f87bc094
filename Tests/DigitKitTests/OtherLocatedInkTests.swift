@testable import DigitKit
import Foundation
import Testing
import TestSupport

@Suite("A look at the other located ink, apart from the ink read first")
struct OtherLocatedInkTests {
    /// The bar read first: the top of a 64x64 map.
    static let bar = BoundingBox(minX: 4, minY: 4, maxX: 27, maxY: 7)

    /// A 64x64 located ink map: `bar` at `barLevel` and a ring 20 px wide,
    /// 3 px thick, from (20, `ringTop`), at `ringLevel` (0: none).
    static func map(barLevel: Double = 0.8, ringLevel: Double, ringTop: Int = 30) -> InkMap {
        let side = 64
        var indices: [Int] = [], values: [Double] = []
        for y in 0..<side {
            for x in 0..<side {
                let inRing = (20...39).contains(x) && (ringTop...(ringTop + 19)).contains(y)
                    && !((23...36).contains(x) && ((ringTop + 3)...(ringTop + 16)).contains(y))
                let level = (x >= bar.minX && x <= bar.maxX && y >= bar.minY && y <= bar.maxY) ? barLevel : inRing ? ringLevel : 0
                if level > 0 { indices.append(y * side + x); values.append(level) }
            }
        }
        return InkMap(width: side, height: side, indices: indices, values: values)
    }

    /// A flat picture: no window in it.
    static let flat = Raster(width: 64, height: 64, values: [Double](repeating: 200, count: 64 * 64))

    @Test("apart: a gap across or down of half the larger box's longer side")
    func apart() {
        let ten = BoundingBox(minX: 0, minY: 0, maxX: 9, maxY: 9)
        #expect(OtherLocatedInk.isApart(BoundingBox(minX: 15, minY: 0, maxX: 24, maxY: 9), from: ten))
        #expect(!OtherLocatedInk.isApart(BoundingBox(minX: 14, minY: 0, maxX: 23, maxY: 9), from: ten))
        #expect(OtherLocatedInk.isApart(BoundingBox(minX: 2, minY: 15, maxX: 6, maxY: 19), from: ten))
        #expect(!OtherLocatedInk.isApart(BoundingBox(minX: 5, minY: 5, maxX: 20, maxY: 20), from: ten))
    }

    @Test("the ring apart from the bar is read when the locator is as sure of it; not when less sure, or next to the bar")
    func ringApart() throws {
        let ringAlone = try #require(Preprocessor.normalized(located: Self.map(barLevel: 0, ringLevel: 0.9)))
        #expect(OtherLocatedInk.tensor(in: Self.map(ringLevel: 0.9), apartFrom: Self.bar) == ringAlone)
        #expect(OtherLocatedInk.tensor(in: Self.map(ringLevel: 0.8), apartFrom: Self.bar) != nil)
        #expect(OtherLocatedInk.tensor(in: Self.map(ringLevel: 0.7), apartFrom: Self.bar) == nil)
        #expect(OtherLocatedInk.tensor(in: Self.map(ringLevel: 0.9, ringTop: 10), apartFrom: Self.bar) == nil)
        #expect(OtherLocatedInk.tensor(in: Self.map(ringLevel: 0), apartFrom: Self.bar) == nil)
    }

    @Test("components reaching into the box read first are left out whole, not cut at its edge")
    func withoutWhole() {
        // The ring from (20, 30) reaches into a box over its top rows only.
        let map = Self.map(barLevel: 0, ringLevel: 0.9)
        #expect(OtherLocatedInk.without(BoundingBox(minX: 0, minY: 28, maxX: 63, maxY: 31), in: map).count == 0)
        #expect(OtherLocatedInk.without(BoundingBox(minX: 0, minY: 0, maxX: 63, maxY: 20), in: map).indices == map.indices)
    }

    @Test("no window: the other ink is looked at after 'not a digit' only, marked as such")
    func afterNotADigitOnly() throws {
        let look = SecondLook(insideWindow: Self.map(ringLevel: 0.9), of: Self.flat, read: Self.bar)
        let ring = try #require(OtherLocatedInk.tensor(in: Self.map(ringLevel: 0.9), apartFrom: Self.bar))
        // tensor(after:) is the subject's look alone, whose warning `look.warning` is: no window here.
        #expect(look.tensor(after: SecondLookTests.rejected) == nil)
        let asked = look.looks(after: SecondLookTests.rejected).compactMap { $0() }
        #expect(asked.map { $0.tensor } == [ring])
        #expect(look.looks(after: SecondLookTests.prediction(digit: 1, 0.6, notADigit: 0.05)).compactMap { $0() }.isEmpty)
        #expect(look.looks(after: SecondLookTests.prediction(digit: 1, 0.95, notADigit: 0.01)).isEmpty)
        let taken = try #require(look.take(after: SecondLookTests.rejected) { _ in SecondLookTests.prediction(digit: 0, 0.9, notADigit: 0.02) })
        #expect(taken.tensor == ring)
        #expect(taken.warning == .otherLocatedInk)
        #expect(SecondLook.answer(SecondLookTests.rejected, for: .blank, warnings: [], second: taken).warnings == [.otherLocatedInk])
    }

    @Test("after the located ink alone, the other ink is asked only when the first look's answer does not stand")
    func inTurn() throws {
        let look = SecondLook(ink: Self.map(ringLevel: 0.9), decision: .rulesWhereLocated, read: Self.bar)
        var asked = 0
        let digit = SecondLookTests.prediction(digit: 0, 0.9, notADigit: 0.02)
        let first = try #require(look.take(after: SecondLookTests.rejected) { _ in asked += 1; return digit })
        #expect(asked == 1)
        #expect(first.warning == .locatedInkAlone)

        asked = 0
        let second = try #require(look.take(after: SecondLookTests.rejected) { _ in
            asked += 1
            return asked == 1 ? SecondLookTests.rejected : digit
        })
        #expect(asked == 2)
        #expect(second.warning == .otherLocatedInk)
        #expect(second.tensor == OtherLocatedInk.tensor(in: Self.map(ringLevel: 0.9), apartFrom: Self.bar))

        // Neither stands: the last look's answer comes back, and the first answer stays.
        asked = 0
        let neither = try #require(look.take(after: SecondLookTests.rejected) { _ in asked += 1; return SecondLookTests.rejected })
        #expect(asked == 2)
        #expect(neither.warning == .otherLocatedInk)
        #expect(SecondLook.answer(SecondLookTests.rejected, for: .blank, warnings: [], second: neither).prediction == SecondLookTests.rejected)
    }

    /// Counts the asynchronous model's calls, as the server's batcher would answer.
    actor Model {
        var asked = 0
        func predict(_ answers: [Prediction]) -> Prediction {
            asked += 1
            return answers[min(asked, answers.count) - 1]
        }
    }

    @Test("the server's asynchronous twin takes the looks in the same turn")
    func inTurnAsync() async throws {
        let look = SecondLook(ink: Self.map(ringLevel: 0.9), decision: .rulesWhereLocated, read: Self.bar)
        let digit = SecondLookTests.prediction(digit: 0, 0.9, notADigit: 0.02)
        for (answers, asked, warning) in [([digit], 1, PreprocessingWarning.locatedInkAlone),
                                          ([SecondLookTests.rejected, digit], 2, .otherLocatedInk)] {
            let model = Model()
            let taken = try #require(await look.take(after: SecondLookTests.rejected) { again async in await model.predict(answers) })
            #expect(await model.asked == asked)
            #expect(taken.warning == warning)
        }
    }

    /// Photos of evaluation generator B's desks (a development run): the
    /// locator marks a card's edge beside the note as surely as the digit,
    /// and that is read first.
    @Test("a desk photo whose card edge is read first: 'not a digit', then the digit on the note, marked",
          arguments: [("desk-card-edge-7.jpg", 7, InkDecision.located), ("desk-card-corner-6.jpg", 6, .rulesWhereLocated)])
    func deskPhoto(file: String, expected: Int, decision: InkDecision) throws {
        let image = try ImageDecoder.forClassification.decode(fileAtPath: Fixtures.path("other-ink/\(file)"))
        let classifier = try SecondLookTests.classifier()
        let stages = try classifier.preprocessor.stages(for: image)
        #expect(stages.inkDecision == decision)
        #expect(try classifier.model.predict(#require(stages.tensor)).isNotADigit)
        try SecondLookTests.expectAnswered(image, named: file, digit: expected, warning: .otherLocatedInk, by: classifier)
    }
}
