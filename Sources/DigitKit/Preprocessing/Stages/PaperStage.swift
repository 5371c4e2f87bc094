/// Step 2: the sheet of paper or sticky note lying on a desk, if any
/// (`PaperRegion`), or with `windows` a meter's window in a light frame;
/// only it is analysed from here on.
struct PaperStage: PreprocessingStage {
    var step: PipelineStep { .paper }
    /// Whether a dark window in a light frame counts as the paper (one digit is read).
    var windows = false

    func run(_ gray: Raster, into analysis: inout PipelineAnalysis) -> PaperRegion {
        let paper = PaperRegion.find(in: gray, windows: windows)
        analysis.record(step, paper.bounds.map {
            "\(paper.isWindow ? "window in a light frame" : "sheet") found at \(AnalysisFormat.box($0)), only it is analysed"
        } ?? "no sheet on a desk, the whole picture is analysed")
        return paper
    }
}
