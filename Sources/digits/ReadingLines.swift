import DigitKit
import DigitsJSON

/// The lines `digits read` writes: text, or ReadingLine's JSON with --json.
struct ReadingLines {
    let json: Bool
    let uncertainBelow: Double

    func isUncertain(_ reading: NumberReading) -> Bool {
        ReadingUncertainty(uncertainBelow: uncertainBelow).isUncertain(reading)
    }

    /// "meter.png: 2026 (97.1%)", "(41.0%, uncertain)"; "blank.png: no digit
    /// found". Text names a picture on standard input by its label ("-[1]"),
    /// JSON by its name and "index".
    func line(for origin: InputOrigin, reading: NumberReading) -> String {
        if json {
            return JSONLineEncoder().line(ReadingLine(file: JSONFileName(origin.path), index: origin.indexInSource,
                                                      outcome: .init(reading, uncertainBelow: uncertainBelow)))
        }
        let file = origin.label
        guard let text = reading.text else { return "\(file): \(ResultFormatting.noDigitReason)" }
        let reasons = reading.warnings.map(\.rawValue).joined(separator: ", ")
        let marker = !reasons.isEmpty ? ", uncertain: \(reasons)" : isUncertain(reading) ? ", uncertain" : ""
        return "\(file): \(text) (\(ResultFormatting.percent(reading.confidence))\(marker))"
    }

    /// The JSON line for an input that failed.
    func errorLine(for origin: InputOrigin, _ error: DigitError) -> String {
        JSONLineEncoder().line(ReadingLine(file: JSONFileName(origin.path), index: origin.indexInSource, outcome: .error(error.message)))
    }
}
