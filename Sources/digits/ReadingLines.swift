import DigitKit

/// The lines `digits read` writes: text, or ReadingLine's JSON with --json.
struct ReadingLines {
    let json: Bool
    let uncertainBelow: Double

    func isUncertain(_ reading: NumberReading) -> Bool {
        reading.confidence < uncertainBelow || reading.ambiguous || reading.mayHoldTouchingDigits
    }

    /// "meter.png: 2026 (97.1%)", "(41.0%, uncertain)"; "blank.png: no digit found".
    func line(for file: String, reading: NumberReading) -> String {
        guard let text = reading.text else {
            return json ? JSONLineEncoder().line(ReadingLine(file: file, outcome: .noDigit(reason: ResultFormatting.noDigitReason)))
                : "\(file): \(ResultFormatting.noDigitReason)"
        }
        let uncertain = isUncertain(reading)
        guard json else {
            return "\(file): \(text) (\(ResultFormatting.percent(reading.confidence))\(uncertain ? ", uncertain" : ""))"
        }
        let characters = reading.characters.map { character -> ReadingLine.Character in
            let box = [character.box.x, character.box.y, character.box.width, character.box.height]
            switch character.kind {
            case .digit(let digit): return .init(digit: digit, char: nil, confidence: character.confidence, box: box)
            default: return .init(digit: nil, char: character.text, confidence: character.confidence, box: box)
            }
        }
        return JSONLineEncoder().line(ReadingLine(
            file: file, outcome: .read(text: text, confidence: reading.confidence, uncertain: uncertain, digits: characters)))
    }

    /// The JSON line for a file that failed.
    func errorLine(for file: String, _ error: DigitError) -> String {
        JSONLineEncoder().line(ReadingLine(file: file, outcome: .error(error.message)))
    }
}
