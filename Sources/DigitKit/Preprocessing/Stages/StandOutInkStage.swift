/// Step 6: the rules' ink map (`InkExtractor`): how far each pixel stands
/// out of the background on the ink's side, minus the noise threshold,
/// contrast-stretched so typical ink is full ink; nil when no ink stands
/// clearly above the noise.
struct StandOutInkStage: PreprocessingStage {
    struct Input {
        let gray: Raster
        let paper: PaperRegion
        let background: StrokeWidthStage.Output
        let inkIsDark: Bool
    }

    var step: PipelineStep { .standOutInk }

    func run(_ input: Input, into analysis: inout PipelineAnalysis) -> InkMap? {
        let standOut = StandOutPixels(input.gray, surface: input.background.surface, region: input.paper,
                                      noiseRegion: input.background.measured)
        let map = InkExtractor.inkMap(standOut, inkIsDark: input.inkIsDark)
        let threshold = AnalysisFormat.decimal(standOut.threshold)
        analysis.record(step, map.map { "\($0.count) px above the noise threshold \(threshold)" }
            ?? "no ink clearly above the noise threshold \(threshold)")
        return map
    }
}
