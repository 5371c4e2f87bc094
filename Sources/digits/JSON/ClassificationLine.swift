import DigitKit

/// The `classify --json` object for one input, keys in this order (README,
/// "classify"):
///
///     {"file"[, "file_base64"][, "index"], "digit", "confidence", "uncertain"[, "warnings"], "probabilities"[, "top"]}
///     {"file"[, "file_base64"][, "index"], "digit": null, "reason"}
///     {"file"[, "file_base64"][, "index"], "digit": null, "reason": "not a digit", "not_a_digit"}
///     {"file"[, "file_base64"][, "index"], "error"}
///
/// "file_base64" holds the exact bytes of a path that is not UTF-8
/// (JSONFileName); "index" is the position of a picture among several on
/// standard input.
struct ClassificationLine: Encodable {
    /// One entry of "top": a digit and its probability.
    struct Ranked: Encodable {
        let digit: Int
        let probability: Double
    }

    enum Outcome {
        case digit(Int, confidence: Double, uncertain: Bool, warnings: [String], probabilities: [Double], top: [Ranked]?)
        case noDigit(reason: String)
        case notADigit(reason: String, probability: Double)
        case error(String)
    }

    let file: JSONFileName
    let index: Int?
    let outcome: Outcome

    private enum CodingKeys: String, CodingKey {
        case file, fileBase64 = "file_base64", index, digit, confidence, uncertain, warnings, probabilities, top, reason, notADigit = "not_a_digit", error
    }

    func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: CodingKeys.self)
        try object.encode(file.file, forKey: .file)
        try object.encodeIfPresent(file.base64, forKey: .fileBase64)
        try object.encodeIfPresent(index, forKey: .index)
        switch outcome {
        case .digit(let digit, let confidence, let uncertain, let warnings, let probabilities, let top):
            try object.encode(digit, forKey: .digit)
            try object.encode(confidence, forKey: .confidence)
            try object.encode(uncertain, forKey: .uncertain)
            if !warnings.isEmpty { try object.encode(warnings, forKey: .warnings) }
            try object.encode(probabilities, forKey: .probabilities)
            try object.encodeIfPresent(top, forKey: .top)
        case .noDigit(let reason):
            try object.encodeNil(forKey: .digit)
            try object.encode(reason, forKey: .reason)
        case .notADigit(let reason, let probability):
            try object.encodeNil(forKey: .digit)
            try object.encode(reason, forKey: .reason)
            try object.encode(probability, forKey: .notADigit)
        case .error(let message):
            try object.encode(message, forKey: .error)
        }
    }
}
