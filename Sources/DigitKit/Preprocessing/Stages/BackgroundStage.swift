/// Step 3: the background surface measured in cells on the paper, polarity
/// not yet known (`BackgroundSurface`), and the pixels standing out of it by
/// more than the noise on either side (`StandOutPixels`).
struct BackgroundStage: PreprocessingStage {
    struct Input {
        let picture: AnalysisSizeStage.Output
        let paper: PaperRegion
    }

    /// The first look at the background.
    struct Output {
        /// The cells' side in pixels.
        let cell: Int
        /// The cells' medians (measured on the paper region).
        let medians: CellGrid<Double>
        /// The pixels that stand out of the surface, either side.
        let standOut: StandOutPixels
    }

    var step: PipelineStep { .background }

    func run(_ input: Input, into analysis: inout PipelineAnalysis) -> Output {
        let gray = input.picture.gray
        let cell = BackgroundSurface.cell(width: gray.width, height: gray.height)
        let medians = BackgroundSurface.cellMedians(gray, levels: input.picture.levels, region: input.paper, cell: cell)
        let surface = BackgroundSurface.estimate(gray, region: input.paper, cell: cell, medians: medians, inkIsDark: nil)
        let standOut = StandOutPixels(gray, surface: surface, region: input.paper)
        analysis.record(step, "cells of \(cell) px, noise threshold \(AnalysisFormat.decimal(standOut.threshold)) grey levels")
        return Output(cell: cell, medians: medians, standOut: standOut)
    }
}
