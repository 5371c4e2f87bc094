/// Step 2 again, after step 7: where the rules found no ink in the whole
/// picture (step 6) but the locator sees some, the region around the
/// located ink, on which steps 3 to 6 run again. A note on a checked cloth
/// is the case: the cloth's contrast sets the noise threshold, and the
/// pen's ink on the note does not rise above it; `PaperRegion` finds no
/// sheet where the cloth's bright checks join the note's border.
struct LocatedRegionStage: PreprocessingStage {
    /// The located box grows by this share of its longer side on each
    /// side: enough paper around the ink for the background cells, little
    /// of the desk beyond a note.
    static let margin = 0.5

    var step: PipelineStep { .paper }

    /// The region, or nil (nothing recorded) when the locator sees no ink.
    func run(_ located: LocatedInk, into analysis: inout PipelineAnalysis) -> PaperRegion? {
        guard located.seesInk, let box = located.locatedBox else { return nil }
        let width = located.probabilities.width, height = located.probabilities.height
        let grow = Int((Double(max(box.width, box.height)) * Self.margin).rounded(.up))
        let region = BoundingBox(minX: max(0, box.minX - grow), minY: max(0, box.minY - grow),
                                 maxX: min(width - 1, box.maxX + grow), maxY: min(height - 1, box.maxY + grow))
        var mask = [Bool](repeating: false, count: width * height)
        for y in region.minY...region.maxY {
            for x in region.minX...region.maxX { mask[y * width + x] = true }
        }
        analysis.record(step, "no ink stood out of the whole picture, the locator saw some: "
            + "only \(AnalysisFormat.box(region)) around it is analysed")
        return PaperRegion(width: width, height: height, mask: mask, borderBrightShare: 0)
    }
}
