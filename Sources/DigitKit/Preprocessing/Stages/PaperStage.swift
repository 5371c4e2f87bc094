/// Step 2: the sheet of paper or sticky note lying on a desk, if any
/// (`PaperRegion`); only it is analysed from here on.
struct PaperStage: PreprocessingStage {
    var step: PipelineStep { .paper }

    func run(_ gray: Raster, into analysis: inout PipelineAnalysis) -> PaperRegion {
        let paper = PaperRegion.find(in: gray)
        analysis.record(step, paper.bounds.map { "sheet found at \(AnalysisFormat.box($0)), only it is analysed" }
            ?? "no sheet on a desk, the whole picture is analysed")
        return paper
    }
}
