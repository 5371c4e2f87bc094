import DigitKit

/// The lines `digits read` writes: text, or ReadingLine's JSON with --json.
struct ReadingLines {
    let json: Bool
    let uncertainBelow: Double

    func isUncertain(_ reading: NumberReading) -> Bool {
        reading.confidence < uncertainBelow || reading.ambiguous || reading.mayHoldTouchingDigits || !reading.warnings.isEmpty
    }

    /// "meter.png: 2026 (97.1%)", "(41.0%, uncertain)"; "blank.png: no digit
    /// found". Text names a picture on standard input by its label ("-[1]"),
    /// JSON by its name and "index".
    func line(for origin: InputOrigin, reading: NumberReading) -> String {
        let file = origin.label
        guard let text = reading.text else {
            return json ? JSONLineEncoder().line(ReadingLine(file: JSONFileName(origin.path), index: origin.indexInSource,
                                                             outcome: .noDigit(reason: ResultFormatting.noDigitReason)))
                : "\(file): \(ResultFormatting.noDigitReason)"
        }
        let uncertain = isUncertain(reading)
        guard json else {
            let reasons = reading.warnings.map(\.rawValue).joined(separator: ", ")
            let marker = !reasons.isEmpty ? ", uncertain: \(reasons)" : uncertain ? ", uncertain" : ""
            return "\(file): \(text) (\(ResultFormatting.percent(reading.confidence))\(marker))"
        }
        let characters = reading.characters.map { character -> ReadingLine.Character in
            let box = [character.box.x, character.box.y, character.box.width, character.box.height]
            switch character.kind {
            case .digit(let digit): return .init(digit: digit, char: nil, confidence: character.confidence, box: box)
            default: return .init(digit: nil, char: character.text, confidence: character.confidence, box: box)
            }
        }
        return JSONLineEncoder().line(ReadingLine(
            file: JSONFileName(origin.path), index: origin.indexInSource, outcome: .read(text: text, confidence: reading.confidence, uncertain: uncertain,
                                                        warnings: reading.warnings.map(\.rawValue), digits: characters)))
    }

    /// The JSON line for an input that failed.
    func errorLine(for origin: InputOrigin, _ error: DigitError) -> String {
        JSONLineEncoder().line(ReadingLine(file: JSONFileName(origin.path), index: origin.indexInSource, outcome: .error(error.message)))
    }
}
