/// Step 7: the learned ink locator's map of the subject's ink
/// (`LocatedInk`), when a locator is set. The locator sees the picture at
/// `LocatedInk.side` pixels; where it sees nothing there but a fine pen may
/// be what it missed (`LocatedInk.looksCloser(for:)`), it looks again at
/// `LocatedInk.closerSide`, where that pen is twice as wide to it.
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
        // `seesInk` first: on most pictures it does, and the rules' strong
        // ink is not worth measuring then.
        guard !located.seesInk, located.looksCloser(for: input.rules.map(InkExtractor.strong)) else {
            analysis.record(step, seen)
            return located
        }
        let closer = try LocatedInk.locate(input.gray, with: locator, side: LocatedInk.closerSide)
        analysis.record(step, "\(seen) at \(LocatedInk.side) px; at \(LocatedInk.closerSide) px \(Self.describe(closer))")
        return closer
    }

    static func describe(_ located: LocatedInk) -> String {
        "\(located.seesInk ? "sees ink" : "sees no ink") (peak \(AnalysisFormat.hundredths(located.peak)))"
    }
}
