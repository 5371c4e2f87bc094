import DigitKit

/// The `read --json` object for one file, and the body of `POST /v1/read`
/// (`digits serve`), keys in this order (docs/read.md):
///
///     {"file"[, "file_base64"][, "index"], "text", "confidence", "uncertain"[, "warnings"], "digits": [{"digit", "confidence", "box": [x, y, w, h]}, ...]}
///     {"file"[, "file_base64"][, "index"], "text": null, "reason": "no digit found"}
///     {"file"[, "file_base64"][, "index"], "error"}
///
/// "file_base64" holds the exact bytes of a path that is not UTF-8
/// (JSONFileName); "index" is the position of a picture among several on
/// standard input. A picture sent to the server has no "file".
/// A decimal point or a minus sign in "digits" has "digit": null and its
/// "char" ("." or "-") after it.
package struct ReadingLine: Encodable {
    /// One character of the reading.
    package struct Character: Encodable {
        package let digit: Int?
        package let char: String?
        package let confidence: Double
        /// x, y, width, height in the picture as decoded.
        package let box: [Int]

        package init(_ character: NumberReading.Character) {
            switch character.kind {
            case .digit(let digit): (self.digit, char) = (digit, nil)
            default: (digit, char) = (nil, character.text)
            }
            confidence = character.confidence
            box = [character.box.x, character.box.y, character.box.width, character.box.height]
        }

        private enum CodingKeys: String, CodingKey { case digit, char, confidence, box }

        package func encode(to encoder: any Encoder) throws {
            var object = encoder.container(keyedBy: CodingKeys.self)
            try object.encodeOrNull(digit, forKey: .digit)
            try object.encodeIfPresent(char, forKey: .char)
            try object.encode(confidence, forKey: .confidence)
            try object.encode(box, forKey: .box)
        }
    }

    package enum Outcome {
        case read(text: String, confidence: Double, uncertain: Bool, warnings: [String], digits: [Character])
        case noDigit(reason: String)
        case error(String)

        /// The outcome of one reading, uncertain below `uncertainBelow` or
        /// when the reader doubts it (ReadingUncertainty).
        package init(_ reading: NumberReading, uncertainBelow: Double) {
            guard let text = reading.text else {
                self = .noDigit(reason: ClassificationLine.noDigitReason)
                return
            }
            self = .read(text: text, confidence: reading.confidence,
                         uncertain: ReadingUncertainty(uncertainBelow: uncertainBelow).isUncertain(reading),
                         warnings: reading.warnings.map(\.rawValue), digits: reading.characters.map(Character.init))
        }
    }

    package let file: JSONFileName?
    package let index: Int?
    package let outcome: Outcome

    package init(file: JSONFileName?, index: Int?, outcome: Outcome) {
        self.file = file
        self.index = index
        self.outcome = outcome
    }

    private enum CodingKeys: String, CodingKey { case file, fileBase64 = "file_base64", index, text, confidence, uncertain, warnings, digits, reason, error }

    package func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: CodingKeys.self)
        try object.encodeIfPresent(file?.file, forKey: .file)
        try object.encodeIfPresent(file?.base64, forKey: .fileBase64)
        try object.encodeIfPresent(index, forKey: .index)
        switch outcome {
        case .read(let text, let confidence, let uncertain, let warnings, let digits):
            try object.encode(text, forKey: .text)
            try object.encode(confidence, forKey: .confidence)
            try object.encode(uncertain, forKey: .uncertain)
            if !warnings.isEmpty { try object.encode(warnings, forKey: .warnings) }
            try object.encode(digits, forKey: .digits)
        case .noDigit(let reason):
            try object.encodeNil(forKey: .text)
            try object.encode(reason, forKey: .reason)
        case .error(let message):
            try object.encode(message, forKey: .error)
        }
    }
}
