import DigitKit
import Foundation

/// How `classify` writes one result, in text or as a JSON line.
struct PredictionFormatting {
    /// Below this confidence a prediction is marked uncertain, unless --uncertain-below says otherwise.
    static let defaultUncertainBelow = 0.8

    let json: Bool
    /// --top K, if given.
    let top: Int?
    let uncertainBelow: Double

    /// The line for one picture: its prediction, or "no digit found" for nil.
    func line(file: String, prediction: Prediction?) -> String {
        guard let prediction else {
            if !json { return "\(file): \(InputLoading.noDigitReason)" }
            var line = JSONLine()
            line.add("file", file)
            line.addNull("digit")
            line.add("reason", InputLoading.noDigitReason)
            return line.text
        }
        return json ? jsonLine(file: file, prediction: prediction) : textLine(file: file, prediction: prediction)
    }

    func isUncertain(_ prediction: Prediction) -> Bool {
        prediction.confidence < uncertainBelow
    }

    /// "seven.png: 7 (99.8%)", "(41.0%, uncertain)" below the threshold, then the ranking when `top` > 1.
    func textLine(file: String, prediction: Prediction) -> String {
        let marker = isUncertain(prediction) ? ", uncertain" : ""
        var line = "\(file): \(prediction.digit) (\(Self.percent(prediction.confidence))\(marker))"
        if let top, top > 1 {
            let ranking = prediction.top(top).map { "\($0.digit) \(Self.percent($0.probability))" }
            line += "  top \(top): " + ranking.joined(separator: ", ")
        }
        return line
    }

    /// {"file", "digit", "confidence", "uncertain", "probabilities"[, "top"]}.
    func jsonLine(file: String, prediction: Prediction) -> String {
        var line = JSONLine()
        line.add("file", file)
        line.add("digit", prediction.digit)
        line.add("confidence", prediction.confidence)
        line.add("uncertain", isUncertain(prediction))
        line.add("probabilities", prediction.probabilities)
        if let top {
            let ranked = prediction.top(top).map { "{\"digit\": \($0.digit), \"probability\": \(JSONLine.number($0.probability))}" }
            line.addRaw("top", "[" + ranked.joined(separator: ", ") + "]")
        }
        return line.text
    }

    /// {"file", "error"}.
    func errorLine(file: String, error: DigitError) -> String {
        var line = JSONLine()
        line.add("file", file)
        line.add("error", error.message)
        return line.text
    }

    static func percent(_ probability: Double) -> String {
        String(format: "%.1f%%", probability * 100)
    }
}
