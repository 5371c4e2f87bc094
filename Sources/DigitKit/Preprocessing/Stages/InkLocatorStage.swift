/// Step 7: the learned ink locator's map of the subject's ink
/// (`LocatedInk`), when a locator is set. The locator sees the picture at
/// `LocatedInk.side` pixels; where it sees nothing there but a fine pen may
/// be what it missed (`LocatedInk.looksCloser(for:)`), it looks again at
/// `LocatedInk.closerSide`, where that pen is twice as wide to it. Where
/// step 2 found a sheet (or a window), both questions are asked of it, and
/// ink seen outside it is left out when some is seen in it (`LocatedInk.onSheet(_:)`).
struct InkLocatorStage: PreprocessingStage {
    struct Input {
        /// The picture at analysis size.
        let gray: Raster
        /// The rules' ink map (step 6), if they found ink.
        let rules: InkMap?
        /// The sheet or window step 2 found, if any.
        let paper: PaperRegion
    }

    let locator: InkLocator

    var step: PipelineStep { .inkLocator }

    func run(_ input: Input, into analysis: inout PipelineAnalysis) throws(DigitError) -> LocatedInk {
        let first = try LocatedInk.locate(input.gray, with: locator)
        var (located, seen) = (first, Self.describe(first))
        // Whether to look closer is asked of the sheet's part, where there
        // is a sheet: a pencil beside it says nothing of a fine pen on it.
        // `seesInk` first: on most pictures it does, and the rules' strong
        // ink is not worth measuring then.
        var onSheet = first.within(input.paper)
        let subject = onSheet ?? first
        if !subject.seesInk, subject.looksCloser(for: input.rules.map(InkExtractor.strong)) {
            located = try LocatedInk.locate(input.gray, with: locator, side: LocatedInk.closerSide)
            seen = "\(seen) at \(LocatedInk.side) px; at \(LocatedInk.closerSide) px \(Self.describe(located))"
            onSheet = located.within(input.paper)
        }
        guard let onSheet, onSheet.seesInk else {
            analysis.record(step, seen)
            return located
        }
        let paper = input.paper.isWindow ? "window" : "sheet"
        analysis.record(step, "\(seen); in the \(paper) \(Self.describe(onSheet)), what it sees outside the \(paper) is left out")
        return onSheet
    }

    /// A map of exact zeros is not a sigmoid's: the shipped locator's
    /// subject gate gives it where it judges the picture holds no subject,
    /// so it is named rather than shown as a peak of 0.00.
    static func describe(_ located: LocatedInk) -> String {
        if located.peak == 0 { return "sees no ink (an empty map: no subject)" }
        return "\(located.seesInk ? "sees ink" : "sees no ink") (peak \(AnalysisFormat.hundredths(located.peak)))"
    }
}
