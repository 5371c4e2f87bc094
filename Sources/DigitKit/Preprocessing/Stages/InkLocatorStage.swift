/// Step 7: the learned ink locator's map of the subject's ink
/// (`LocatedInk`), when a locator is set.
struct InkLocatorStage: PreprocessingStage {
    let locator: InkLocator

    var step: PipelineStep { .inkLocator }

    func run(_ gray: Raster, into analysis: inout PipelineAnalysis) throws(DigitError) -> LocatedInk {
        let located = try LocatedInk.locate(gray, with: locator)
        analysis.record(step, "\(located.seesInk ? "sees ink" : "sees no ink") (peak \(AnalysisFormat.hundredths(located.peak)))")
        return located
    }
}
