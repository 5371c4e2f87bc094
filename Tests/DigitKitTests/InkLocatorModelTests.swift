@testable import DigitKit
import Foundation
import Testing
import TestSupport

/// The bridge's ink-locator functions and the 11-class digit models: what
/// loads, what is refused at load, what fails at run time, and how.
@Suite("Ink locator and rejection-class models")
struct InkLocatorModelTests {
    static let examples = Fixtures.repositoryRoot.appendingPathComponent("Examples").path

    @Test("the shipped locator gives a probability per pixel, high on the digit's ink and low on blank paper")
    func shippedLocator() throws {
        let locator = try InkLocator(path: Fixtures.shippedLocator)
        let seven = try ImageDecoder().decode(fileAtPath: "\(Self.examples)/seven.png")
        let located = try LocatedInk.locate(Preprocessor.analysisRaster(seven), with: locator)
        #expect(located.probabilities.width == seven.width && located.probabilities.height == seven.height)
        #expect(located.probabilities.values.allSatisfy { (0...1).contains($0) })
        #expect(located.seesInk)
        let blank = try ImageDecoder().decode(fileAtPath: "\(Self.examples)/blank-paper.png")
        #expect(!(try LocatedInk.locate(Preprocessor.analysisRaster(blank), with: locator)).seesInk)
    }

    /// A sticky note on a grey desk below a dark edge, no ink: the ungated
    /// map of 0.22.0 to 0.32.3 marked the edge (peak 0.89) and digits
    /// answered a 1 at 99.1%. This is the 128-px look; HeldOutSampleTests
    /// checks the CLI's whole answer, "no digit found".
    @Test("the shipped locator's subject gate shuts out a picture with no subject that the map alone marks")
    func subjectGate() throws {
        let locator = try InkLocator(path: Fixtures.shippedLocator)
        let note = try ImageDecoder().decode(fileAtPath: Fixtures.path("held-out/blank_s29112_0035.png"))
        let located = try LocatedInk.locate(Preprocessor.analysisRaster(note), with: locator)
        // A map the gate lets pass is a sigmoid's: positive everywhere. Only a shut gate gives zeros.
        #expect(located.probabilities.values.allSatisfy { $0 == 0 })
        #expect(!located.seesInk)
        // --steps names the empty map rather than showing a peak of 0.00.
        let steps = try Preprocessor(locator: locator).stages(for: note)
        #expect(steps.analysis.decision(of: .inkLocator)?.text.hasPrefix("sees no ink (an empty map: no subject)") == true)
    }

    @Test("a warmed-up locator (TorchScript's optimized graph) gives the map a cold one gives")
    func warmUp() throws {
        let seven = Preprocessor.analysisRaster(try ImageDecoder().decode(fileAtPath: "\(Self.examples)/seven.png"))
        let cold = try LocatedInk.locate(seven, with: try InkLocator(path: Fixtures.shippedLocator)).probabilities
        let warmed = try InkLocator(path: Fixtures.shippedLocator)
        try warmed.warmUp()
        let warm = try LocatedInk.locate(seven, with: warmed).probabilities
        #expect(warm.width == cold.width && warm.height == cold.height)
        let largest = zip(warm.values, cold.values).map { abs($0 - $1) }.max() ?? .infinity
        #expect(largest < 1e-4, "largest difference \(largest)")
        #expect(warm.values.contains { $0 >= 0.5 }, "the seven's ink is located")
    }

    @Test("a model that answers at another size, or a digit model, is refused at load as not an ink locator",
          arguments: ["locator-half-size", "logits"])
    func refusedAtLoad(_ name: String) {
        #expect {
            _ = try InkLocator(path: Fixtures.model(name))
        } throws: { error in
            let error = error as! DigitError
            return error.code == .notADigitModel && error.description.contains("not an ink locator")
                && error.description.contains(Fixtures.model(name))
        }
    }

    @Test("a locator that returns NaN fails the forward pass with the model named, not a guess")
    func nanAtRunTime() throws {
        let locator = try InkLocator(path: Fixtures.model("locator-nan-on-ink"))
        let seven = try ImageDecoder().decode(fileAtPath: "\(Self.examples)/seven.png")
        #expect {
            _ = try Preprocessor(locator: locator).stages(for: seven)
        } throws: { error in
            let error = error as! DigitError
            return error.code == .inferenceFailed && error.description.contains("not probabilities")
                && error.description.contains(Fixtures.model("locator-nan-on-ink"))
        }
        #expect(Preprocessor(locator: locator).process(seven).locatorFailure?.code == .inferenceFailed)
    }

    /// A 512x512 white picture with a dark L of strokes `stroke` pixels wide.
    static func largeL(stroke: Int) throws -> GrayImage {
        var pixels = [UInt8](repeating: 255, count: 512 * 512)
        for y in 150..<350 { for x in 250..<(250 + stroke) { pixels[y * 512 + x] = 0 } }
        for y in (350 - stroke)..<350 { for x in 250..<360 { pixels[y * 512 + x] = 0 } }
        return try GrayImage(width: 512, height: 512, pixels: pixels)
    }

    @Test("where the locator sees nothing but the rules' strokes are finer than its pixels, it looks again at 256 px")
    func closerLook() throws {
        // The test locator sees dark pixels only in a 256-px picture.
        let locator = try InkLocator(path: Fixtures.model("locator-dark-at-256"))
        // The L on white is a clean drawing, which the rules would read alone.
        var preprocessor = Preprocessor(locator: locator)
        preprocessor.leavesCleanDrawingsToRules = false
        let fine = try preprocessor.stages(for: Self.largeL(stroke: 2))
        #expect(fine.analysis.decision(of: .inkLocator)?.text
                == "sees no ink (an empty map: no subject) at 128 px; at 256 px sees ink (peak 1.00)")
        #expect(fine.inkDecision == .rulesWhereLocated)
        #expect(fine.field != nil)
        // Strokes wider than the 128-px look's pixels (4 here; these are about 8): no second look, so no digit.
        let bold = try preprocessor.stages(for: Self.largeL(stroke: 8))
        #expect(bold.analysis.decision(of: .inkLocator)?.text == "sees no ink (an empty map: no subject)")
        #expect(bold.inkDecision == .nothingLocated && bold.field == nil)
    }

    @Test("a side outside the bridge's range is refused as an invalid argument, not run")
    func sideOutOfRange() throws {
        let locator = try InkLocator(path: Fixtures.model("locator-everywhere"))
        for (width, height) in [(8, 64), (64, 264), (60, 64)] {
            let picture = Raster(width: width, height: height, values: Array(repeating: 0, count: width * height))
            #expect(throws: DigitError.self) { _ = try locator.probabilities(for: picture) }
        }
    }

    @Test("an 11-class model loads; its last class is 'not a digit' and the probabilities sum to 1 with it")
    func rejectionClass() throws {
        let model = try DigitModel(path: Fixtures.model("rejection-logits"))
        #expect(model.classCount == 11)
        let seven = try #require(Preprocessor().tensor(for: try ImageDecoder().decode(fileAtPath: "\(Self.examples)/seven.png")))
        let prediction = try model.predict(seven)
        #expect(prediction.probabilities.count == 10)
        #expect(abs(prediction.probabilities.reduce(0, +) + prediction.notADigit - 1) < 1e-4)
        #expect(prediction.notADigit > 0)
        #expect(prediction.isNotADigit == (prediction.notADigit > prediction.confidence))
        #expect(try DigitModel(path: Fixtures.shippedModel).classCount >= 10)
    }
}

/// How the ink locator and the rules are combined (`SubjectInkStage.choose`).
@Suite("Located ink decision")
struct LocatedInkDecisionTests {
    /// A 10x10 located map with probability `p` on the pixels of `ink`.
    static func located(_ ink: Set<Int>, p: Double = 0.9) -> LocatedInk {
        let values = (0..<100).map { ink.contains($0) ? p : 0.0 }
        return LocatedInk(probabilities: Raster(width: 10, height: 10, values: values), peak: values.max()!)
    }

    /// An ink map of `side` x `side` with full ink on the pixels of `ink`.
    static func map<Ink: Collection<Int>>(_ ink: Ink, side: Int = 10) -> InkMap {
        InkMap(width: side, height: side, indices: ink.sorted(), values: ink.map { _ in 1 })
    }

    /// A vertical stroke: column 4, rows 2-7.
    static let stroke = Set((2...7).map { $0 * 10 + 4 })

    static func choose(_ rules: InkMap?, _ located: LocatedInk?) -> (Set<Int>?, InkDecision) {
        let output = SubjectInkStage.choose(rules: rules, located: located)
        return (output.map.map { Set($0.indices) }, output.decision)
    }

    @Test("a locator that sees nothing, or too little, means no digit, whatever the rules found")
    func nothingLocated() {
        #expect(Self.choose(Self.map(Array(Self.stroke)), Self.located(Self.stroke, p: 0.6)).1 == .nothingLocated)
        var few = Self.located(Self.stroke)
        few.inkPixels = LocatedInk.seenPixels - 1
        let (ink, decision) = Self.choose(Self.map(Array(Self.stroke)), few)
        #expect(decision == .nothingLocated && ink == nil)
    }

    @Test("a ruled line through the digit, far wider than the located ink, is cut to where it is located")
    func lineCut() {
        let line = (0..<10).map { 50 + $0 }
        let (ink, decision) = Self.choose(Self.map(Array(Self.stroke.union(line))), Self.located(Self.stroke))
        #expect(decision == .rulesWhereLocated)
        #expect(ink == Self.stroke)
    }

    @Test("a component the locator mostly covers is kept whole: a stroke end it missed stays")
    func wholeComponent() {
        let longer = Self.stroke.union([84])
        let (ink, decision) = Self.choose(Self.map(Array(longer)), Self.located(Self.stroke))
        #expect(decision == .rulesWhereLocated)
        #expect(ink == longer)
    }

    /// A 20x20 located map (the rules' size) from a locator whose own
    /// pixels were 2 of these wide (`pixelSize`): its trace of a
    /// one-pixel stroke is two wide.
    static func coarse(_ ink: Set<Int>) -> LocatedInk {
        let values = (0..<400).map { ink.contains($0) ? 0.9 : 0.0 }
        return LocatedInk(probabilities: Raster(width: 20, height: 20, values: values), peak: 0.9, pixelSize: 2)
    }

    /// A one-pixel L: column 4, rows 2-15, then row 15 to column 14.
    static let fineL = Set((2...15).map { $0 * 20 + 4 } + (5...14).map { 15 * 20 + $0 })
    /// The locator's two-pixel trace of the L's two ends only: columns 4-5
    /// of rows 2-5, and rows 14-15 of columns 12-14.
    static let endTraces: Set<Int> = {
        let top: [Int] = (2...5).flatMap { row in [row * 20 + 4, row * 20 + 5] }
        let end: [Int] = (12...14).flatMap { column in [14 * 20 + column, 15 * 20 + column] }
        return Set(top + end)
    }()

    @Test("fine strokes covering all the locator saw stand whole, though it saw only their ends")
    func fineStrokesBeyondLocated() {
        let rules = Self.map(Self.fineL, side: 20)
        let located = Self.coarse(Self.endTraces)
        #expect(located.overlap(with: rules) < LocatedInk.agreement)
        let output = SubjectInkStage.choose(rules: rules, located: located)
        #expect(output.decision == .rulesBeyondLocated)
        #expect(output.map.map { Set($0.indices) } == Self.fineL)
    }

    @Test("wide strokes covering the located pieces give way to them: more likely paper or shadow taken for ink")
    func wideStrokesCoveringLocated() {
        // The L four pixels thick: columns 4-7 of rows 2-15, rows 12-15 of columns 4-14.
        let upright: [Int] = (2...15).flatMap { row in (4...7).map { column in row * 20 + column } }
        let foot: [Int] = (12...15).flatMap { row in (8...14).map { column in row * 20 + column } }
        let thick = Set(upright + foot)
        let rules = Self.map(thick, side: 20)
        let located = Self.coarse(Self.endTraces)
        #expect(located.coverage(by: rules) >= LocatedInk.fineCoverage)
        #expect(located.overlap(with: rules) < LocatedInk.agreement)
        #expect(SubjectInkStage.choose(rules: rules, located: located).decision == .located)
    }

    @Test("fine strokes that cover only part of the located ink give way to it")
    func fineStrokesMissingLocated() {
        let rules = Self.map(Self.fineL, side: 20)
        let other = Set((2...6).flatMap { [$0 * 20 + 12, $0 * 20 + 13] })
        let output = SubjectInkStage.choose(rules: rules, located: Self.coarse(Self.endTraces.union(other)))
        #expect(output.decision == .located)
    }

    /// A 30x30 located map: a band 10 pixels wide (columns 10-19, rows
    /// 3-26), seen by a locator whose own pixels were `pixelSize` of these.
    static func band(pixelSize: Double) -> LocatedInk {
        let values = (0..<900).map { (10...19).contains($0 % 30) && (3...26).contains($0 / 30) ? 0.9 : 0.0 }
        return LocatedInk(probabilities: Raster(width: 30, height: 30, values: values), peak: 0.9, pixelSize: pixelSize)
    }

    /// The band's rims, 2 pixels thick: what the rules keep of a marker
    /// stroke wider than their background cells.
    static let rims = Set((0..<900).filter { index in
        let (x, y) = (index % 30, index / 30)
        return (10...19).contains(x) && (3...26).contains(y) && ([10, 11, 18, 19].contains(x) || [3, 4, 25, 26].contains(y))
    })

    @Test("the rules kept only the rims of a bold stroke the locator resolved: the located ink stands")
    func boldStrokeHollowedByRules() throws {
        let located = Self.band(pixelSize: 1)
        let output = SubjectInkStage.choose(rules: Self.map(Self.rims, side: 30), located: located)
        #expect(output.decision == .locatedBolder)
        #expect(try #require(output.map).indices == located.inkMap.indices)
        let solid = Set(located.inkMap.indices)
        #expect(SubjectInkStage.choose(rules: Self.map(solid, side: 30), located: located).decision == .rulesWhereLocated)
    }

    @Test("rules that kept nothing of a bold located band found other ink: plain 'located', not 'bolder'")
    func boldBandRulesElsewhere() {
        let output = SubjectInkStage.choose(rules: Self.map([0, 1, 2, 30, 31, 32], side: 30), located: Self.band(pixelSize: 1))
        #expect(output.decision == .located)
    }

    @Test("a band under the locator's resolution is a blurred pen line, not a bold stroke: the rules stand")
    func boldBandUnresolved() {
        let output = SubjectInkStage.choose(rules: Self.map(Self.rims, side: 30), located: Self.band(pixelSize: 2))
        #expect(output.decision == .rulesWhereLocated)
        #expect(output.map.map { Set($0.indices) } == Self.rims)
    }

    @Test("a second, closer look only for a fine pen the first look missed, on a picture over 256 px")
    func looksCloser() {
        func look(peak: Double, pixels: Int, pixelSize: Double) -> LocatedInk {
            LocatedInk(probabilities: Raster(width: 10, height: 10, values: Array(repeating: 0, count: 100)), peak: peak,
                       inkPixels: pixels, pixelSize: pixelSize)
        }
        // The rules found no ink; the locator a trace too small to count.
        #expect(look(peak: 0.8, pixels: 3, pixelSize: 4).looksCloser(for: nil))
        #expect(!look(peak: 0.8, pixels: 3, pixelSize: 1.5).looksCloser(for: nil), "192 px: 256 is no closer")
        #expect(!look(peak: 0.5, pixels: 3, pixelSize: 4).looksCloser(for: nil), "nothing high enough")
        #expect(!look(peak: 0.8, pixels: 20, pixelSize: 4).looksCloser(for: nil), "it sees ink")
        // The rules' strokes against the first look's pixels: one pixel wide
        // (2 as `StrokeWidth` measures a line), or three (about 2.6).
        let fine = Self.map(Array(Self.stroke))
        let wider = Self.map(Self.stroke.flatMap { [$0 - 1, $0, $0 + 1] })
        #expect(look(peak: 0.5, pixels: 0, pixelSize: 2.1).looksCloser(for: fine))
        #expect(!look(peak: 0.5, pixels: 0, pixelSize: 2.1).looksCloser(for: wider), "strokes wider than its pixels")
    }

    @Test("rules that found other ink, or none, give way to the located ink")
    func locatedWins() {
        for rules in [Self.map([0, 1, 9, 90, 99]), nil] {
            let (ink, decision) = Self.choose(rules, Self.located(Self.stroke))
            #expect(decision == .located)
            #expect(ink == Self.stroke)
        }
    }
}
