/// Step 7: the learned ink locator's map of the subject's ink
/// (`LocatedInk`), when a locator is set. The locator sees the picture at
/// `LocatedInk.side` pixels; where it sees nothing there, but the rules'
/// strokes are finer than its pixels, it looks again at
/// `LocatedInk.closerSide`, where a fine pen is twice as wide to it.
struct InkLocatorStage: PreprocessingStage {
    struct Input {
        /// The picture at analysis size.
        let gray: Raster
        /// The rules' ink map (step 6), if they found ink.
        let rules: InkMap?
    }

    let locator: InkLocator

    var step: PipelineStep { .inkLocator }

    func run(_ input: Input, into analysis: inout PipelineAnalysis) throws(DigitError) -> LocatedInk {
        let located = try LocatedInk.locate(input.gray, with: locator)
        let seen = Self.describe(located)
        guard !located.seesInk, let rules = input.rules, located.looksCloser(for: InkExtractor.strong(rules)) else {
            analysis.record(step, seen)
            return located
        }
        let closer = try LocatedInk.locate(input.gray, with: locator, side: LocatedInk.closerSide)
        analysis.record(step, "\(seen) at \(LocatedInk.side) px, the rules' strokes finer than its pixels; "
            + "at \(LocatedInk.closerSide) px \(Self.describe(closer))")
        return closer
    }

    static func describe(_ located: LocatedInk) -> String {
        "\(located.seesInk ? "sees ink" : "sees no ink") (peak \(AnalysisFormat.hundredths(located.peak)))"
    }
}
