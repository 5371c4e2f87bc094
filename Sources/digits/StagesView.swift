import DigitKit

/// Draws the stages of the preprocessing for `digits ascii --steps`, each as a
/// small ASCII picture no larger than 28x28.
enum StagesView {
    static func render(_ stages: PreprocessingStages, renderer: AsciiRenderer) -> String {
        var text = stages.analysis.lines.map { $0 + "\n" }.joined()
        text += "picture (\(stages.gray.width)x\(stages.gray.height), white is '@'):\n"
        text += renderer.renderPreview(stages.gray)
        if let paper = stages.paper {
            text += "sheet found on a desk: x \(paper.minX), y \(paper.minY), \(paper.width)x\(paper.height) (only it is analysed)\n"
        }
        if let background = stages.background {
            text += "background estimate (shadows and tint, removed):\n"
            text += renderer.renderPreview(background)
        }
        if let bright = stages.inkIsBright, let inverted = stages.inverted {
            text += "ink made bright (\(inverted ? "inverted" : "kept as it is")):\n"
            text += renderer.renderPreview(bright)
        }
        if let located = stages.located {
            text += "ink located by the model (probability, 1 is '@'):\n"
            text += renderer.renderPreview(Raster(width: located.width, height: located.height, values: located.values.map { $0 * 255 }))
        }
        text += "the ink decided by: \(Self.describe(stages.inkDecision))\n"
        if let ink = stages.ink {
            text += "digit's box (\(ink.width)x\(ink.height), cleaned and contrast-stretched):\n"
            text += renderer.renderPreview(ink)
        }
        return text
    }

    /// Which part of the pipeline decided where the digit's ink is, in words.
    static func describe(_ decision: InkDecision) -> String {
        switch decision {
        case .rules: return "the rules (no ink locator)"
        case .rulesOnCleanDrawing: return "the rules: one clear digit on plain paper, so the ink locator was not asked"
        case .rulesWhereLocated: return "the rules, kept where the ink locator sees the subject's ink"
        case .rulesBeyondLocated: return "the rules: their fine strokes cover nearly all the ink locator saw, and more of the digit"
        case .located: return "the ink locator (the rules found none, or other ink)"
        case .locatedBolder: return "the ink locator: its strokes are bolder than the rules', which kept only their rims"
        case .nothingLocated: return "the ink locator, which sees no subject: no digit"
        case .rulesFinerThanLocator: return "the rules: the ink locator sees nothing, but the strokes are finer than its pixels"
        }
    }
}
