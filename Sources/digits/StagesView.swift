import DigitKit

/// Draws the stages of the preprocessing for `digits ascii --steps`, each as a
/// small ASCII picture no larger than 28x28.
enum StagesView {
    static func render(_ stages: PreprocessingStages, renderer: AsciiRenderer) -> String {
        var text = "picture (\(stages.gray.width)x\(stages.gray.height), white is '@'):\n"
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
        if let ink = stages.ink {
            text += "digit's box (\(ink.width)x\(ink.height), cleaned and contrast-stretched):\n"
            text += renderer.renderPreview(ink)
        }
        return text
    }
}
