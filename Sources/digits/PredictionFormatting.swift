import DigitKit
import Foundation

/// How `classify` writes one result, in text or as a JSON line.
enum PredictionFormatting {
    /// "seven.png: 7 (99.8%)", followed by the ranking when `top` > 1.
    static func text(file: String, prediction: Prediction, top: Int?) -> String {
        var line = "\(file): \(prediction.digit) (\(percent(prediction.confidence)))"
        if let top, top > 1 {
            let ranking = prediction.top(top).map { "\($0.digit) \(percent($0.probability))" }
            line += "  top \(top): " + ranking.joined(separator: ", ")
        }
        return line
    }

    /// {"file", "digit", "confidence", "probabilities"[, "top"]}.
    static func json(file: String, prediction: Prediction, top: Int?) -> String {
        var json = JSONLine()
        json.add("file", file)
        json.add("digit", prediction.digit)
        json.add("confidence", prediction.confidence)
        json.add("probabilities", prediction.probabilities)
        if let top {
            let ranked = prediction.top(top).map { "{\"digit\": \($0.digit), \"probability\": \(JSONLine.number($0.probability))}" }
            json.addRaw("top", "[" + ranked.joined(separator: ", ") + "]")
        }
        return json.text
    }

    /// {"file", "error"}.
    static func jsonError(file: String, error: DigitError) -> String {
        var json = JSONLine()
        json.add("file", file)
        json.add("error", error.message)
        return json.text
    }

    static func percent(_ probability: Double) -> String {
        String(format: "%.1f%%", probability * 100)
    }
}
