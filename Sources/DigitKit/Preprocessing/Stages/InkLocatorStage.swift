/// Step 7: the learned ink locator's map of the subject's ink
/// (`LocatedInk`), when a locator is set. The locator sees the picture at
/// `LocatedInk.side` pixels; where it sees nothing there but a fine pen may
/// be what it missed (`LocatedInk.looksCloser(for:)`), it looks again at
/// `LocatedInk.closerSide`, where that pen is twice as wide to it. Where
/// step 2 found a sheet, ink seen off it is left out when some is seen on it
/// (`LocatedInk.onSheet(_:)`).
struct InkLocatorStage: PreprocessingStage {
    struct Input {
        /// The picture at analysis size.
        let gray: Raster
        /// The rules' ink map (step 6), if they found ink.
        let rules: InkMap?
        /// The sheet step 2 found, if any.
        let paper: PaperRegion
    }

    let locator: InkLocator

    var step: PipelineStep { .inkLocator }

    func run(_ input: Input, into analysis: inout PipelineAnalysis) throws(DigitError) -> LocatedInk {
        let (located, seen) = try look(at: input)
        guard let onSheet = located.onSheet(input.paper) else {
            analysis.record(step, seen)
            return located
        }
        analysis.record(step, "\(seen); on the sheet \(Self.describe(onSheet)), what it sees off the sheet is left out")
        return onSheet
    }

    /// The look at `LocatedInk.side`, or the closer look, and what it saw in words.
    private func look(at input: Input) throws(DigitError) -> (LocatedInk, String) {
        let located = try LocatedInk.locate(input.gray, with: locator)
        let seen = Self.describe(located)
        // `seesInk` first: on most pictures it does, and the rules' strong
        // ink is not worth measuring then.
        guard !located.seesInk, located.looksCloser(for: input.rules.map(InkExtractor.strong)) else { return (located, seen) }
        let closer = try LocatedInk.locate(input.gray, with: locator, side: LocatedInk.closerSide)
        return (closer, "\(seen) at \(LocatedInk.side) px; at \(LocatedInk.closerSide) px \(Self.describe(closer))")
    }

    static func describe(_ located: LocatedInk) -> String {
        "\(located.seesInk ? "sees ink" : "sees no ink") (peak \(AnalysisFormat.hundredths(located.peak)))"
    }
}
