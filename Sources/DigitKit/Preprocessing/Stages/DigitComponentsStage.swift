/// Step 9: the digit among the subject's ink (`ConnectedComponents.digit`):
/// the component holding the most ink and the large, not faint components
/// near it, the rest (specks, dust, faint traces, grain far away) dropped;
/// their box, cropped and scaled to grey levels 0-255.
struct DigitComponentsStage: PreprocessingStage {
    struct Digit {
        /// The digit's box, its ink at 0-255 (the other pixels 0).
        let ink: Raster
        /// Where the digit's box lies in the picture at analysis size.
        let box: BoundingBox
        /// The boxes of every component large enough to be part of a digit,
        /// near the digit or not (`InkLayout` looks for several digits in them).
        let parts: [BoundingBox]
    }

    /// Whether the ink locator chose the map's ink (steps 7 and 8 ran).
    var located = false

    var step: PipelineStep { .components }

    func run(_ map: InkMap, into analysis: inout PipelineAnalysis) -> Digit? {
        taking(ConnectedComponents.digit(in: map, located: located), into: &analysis)
    }

    /// Step 9 with the components found already: a clean drawing's, which
    /// step 7 found in the same map (`CleanDrawing.Ink`).
    func taking(_ found: ConnectedComponents.Digit?, into analysis: inout PipelineAnalysis) -> Digit? {
        guard let digit = found else {
            analysis.record(step, "none large enough for a digit")
            return nil
        }
        let dropped = digit.found - digit.kept
        analysis.record(step, "\(digit.kept) kept, \(dropped) dropped (specks, faint or far); box at \(AnalysisFormat.box(digit.box))")
        return Digit(ink: digit.map.cropped(digit.box, scale: 255), box: digit.box, parts: digit.parts)
    }
}
