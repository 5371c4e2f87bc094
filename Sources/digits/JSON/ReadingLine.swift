/// The `read --json` object for one file, keys in this order (README, "read"):
///
///     {"file"[, "file_base64"][, "index"], "text", "confidence", "uncertain"[, "warnings"], "digits": [{"digit", "confidence", "box": [x, y, w, h]}, ...]}
///     {"file"[, "file_base64"][, "index"], "text": null, "reason": "no digit found"}
///     {"file"[, "file_base64"][, "index"], "error"}
///
/// "file_base64" holds the exact bytes of a path that is not UTF-8
/// (JSONFileName); "index" is the position of a picture among several on
/// standard input.
/// A decimal point or a minus sign in "digits" has "digit": null and its
/// "char" ("." or "-") after it.
struct ReadingLine: Encodable {
    /// One character of the reading.
    struct Character: Encodable {
        let digit: Int?
        let char: String?
        let confidence: Double
        /// x, y, width, height in the picture as decoded.
        let box: [Int]

        private enum CodingKeys: String, CodingKey { case digit, char, confidence, box }

        func encode(to encoder: any Encoder) throws {
            var object = encoder.container(keyedBy: CodingKeys.self)
            try object.encodeOrNull(digit, forKey: .digit)
            try object.encodeIfPresent(char, forKey: .char)
            try object.encode(confidence, forKey: .confidence)
            try object.encode(box, forKey: .box)
        }
    }

    enum Outcome {
        case read(text: String, confidence: Double, uncertain: Bool, warnings: [String], digits: [Character])
        case noDigit(reason: String)
        case error(String)
    }

    let file: JSONFileName
    let index: Int?
    let outcome: Outcome

    private enum CodingKeys: String, CodingKey { case file, fileBase64 = "file_base64", index, text, confidence, uncertain, warnings, digits, reason, error }

    func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: CodingKeys.self)
        try object.encode(file.file, forKey: .file)
        try object.encodeIfPresent(file.base64, forKey: .fileBase64)
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
