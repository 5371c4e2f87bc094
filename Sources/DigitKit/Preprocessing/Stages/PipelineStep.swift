/// The numbered steps of the MNIST pipeline: the one place the numbering is
/// defined, used by docs/how-it-works.md, `Preprocessor` and the stages' files (step
/// 10's parts a-d are `NormalizationTail`'s).
public enum PipelineStep: Int, Sendable, CaseIterable, Comparable {
    /// 1. The picture at most 512 pixels on its longer side.
    case analysisSize = 1
    /// 2. The sheet of paper lying on a desk, or a meter's window in a light frame, if any.
    case paper
    /// 3. The background surface and the noise threshold, polarity unknown.
    case background
    /// 4. Whether the ink is darker than the background (then inverted).
    case polarity
    /// 5. The strokes' width and the background measured again.
    case strokeWidth
    /// 6. The ink map by the rules: what stands out of the noise on the ink's side.
    case standOutInk
    /// 7. The learned ink locator's map, when one is set.
    case inkLocator
    /// 8. Which ink is the subject's: the rules', the located, or none.
    case subjectInk
    /// 9. The digit's connected components and their box.
    case components
    /// 10. The normalization tail: 20-pixel box, stroke thickening, centre of mass in 28x28, tensor.
    case normalization

    /// The step's short name, as the analysis lines show it.
    public var name: String {
        switch self {
        case .analysisSize: return "analysis size"
        case .paper: return "paper"
        case .background: return "background"
        case .polarity: return "polarity"
        case .strokeWidth: return "stroke width"
        case .standOutInk: return "stand-out ink"
        case .inkLocator: return "locator"
        case .subjectInk: return "ink"
        case .components: return "components"
        case .normalization: return "normalization"
        }
    }

    public static func < (lhs: PipelineStep, rhs: PipelineStep) -> Bool { lhs.rawValue < rhs.rawValue }
}
