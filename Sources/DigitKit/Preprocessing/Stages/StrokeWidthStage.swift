/// Step 5: the strokes' width (`StrokeWidth`) and the background measured
/// again knowing the polarity, with cells at least `cellsPerStroke` strokes
/// wide, and on the paper alone in a tight crop on plain paper (`TightCrop`).
struct StrokeWidthStage: PreprocessingStage {
    struct Input {
        let picture: AnalysisSizeStage.Output
        let paper: PaperRegion
        let first: BackgroundStage.Output
        let inkIsDark: Bool
    }

    /// The background the ink is measured against.
    struct Output {
        let surface: BackgroundSurface
        /// Where the background and the noise were measured: the paper
        /// region, or only its paper side in a tight crop.
        let measured: PaperRegion
    }

    /// The second background surface's cells are at least this many
    /// strokes wide.
    static let cellsPerStroke = 1.2

    var step: PipelineStep { .strokeWidth }

    func run(_ input: Input, into analysis: inout PipelineAnalysis) -> Output {
        let gray = input.picture.gray
        let paperSide = TightCrop.paperSide(of: gray, levels: input.picture.levels, region: input.paper, inkIsDark: input.inkIsDark)
        let measured = paperSide ?? input.paper
        let strokes = StrokeWidth.of(input.first.standOut.ink(isDark: input.inkIsDark).indices, width: gray.width, height: gray.height)
        let cell = max(input.first.cell, Int((Self.cellsPerStroke * strokes).rounded(.up)))
        // The first cells' medians serve again when neither the cells nor the region changed.
        let medians = paperSide == nil && cell == input.first.cell
            ? input.first.medians
            : BackgroundSurface.cellMedians(gray, levels: input.picture.levels, region: measured, cell: cell)
        let surface = BackgroundSurface.estimate(gray, region: measured, cell: cell, medians: medians, inkIsDark: input.inkIsDark)
        analysis.record(step, "strokes \(AnalysisFormat.decimal(strokes)) px wide; background measured again in cells of \(cell) px"
            + (paperSide == nil ? "" : ", on the paper side of a tight crop"))
        return Output(surface: surface, measured: measured)
    }
}
