import DigitKit

/// Draws the stages of the preprocessing for `digits ascii --steps`, each as a
/// small ASCII picture no larger than 28x28.
enum StagesView {
    static func render(_ stages: PreprocessingStages, renderer: AsciiRenderer) -> String {
        var text = "picture (\(stages.gray.width)x\(stages.gray.height), white is '@'):\n"
        text += renderer.renderPreview(stages.gray)
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
