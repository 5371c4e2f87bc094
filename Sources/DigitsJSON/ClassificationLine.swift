import DigitKit

/// The `classify --json` object for one input, and the body of `POST
/// /v1/classify` (`digits serve`), keys in this order (docs/commands.md, "classify"):
///
///     {"file"[, "file_base64"][, "index"], "digit", "confidence", "uncertain"[, "warnings"], "probabilities"[, "top"][, "preprocessed"]}
///     {"file"[, "file_base64"][, "index"], "digit": null, "reason"[, "preprocessed"]}
///     {"file"[, "file_base64"][, "index"], "digit": null, "reason": "not a digit", "not_a_digit"[, "top"][, "preprocessed"]}
///     {"file"[, "file_base64"][, "index"], "error"}
///
/// "file_base64" holds the exact bytes of a path that is not UTF-8
/// (JSONFileName); "index" is the position of a picture among several on
/// standard input or in a multipart request. A picture sent alone to the
/// server has no "file".
package struct ClassificationLine: Encodable {
    /// What "reason" says for a picture without a digit.
    package static let noDigitReason = "no digit found"
    /// What a model with a rejection class answers for a letter, a symbol or a scribble.
    package static let notADigitReason = "not a digit"

    /// One entry of "top": a digit and its probability.
    package struct Ranked: Encodable {
        package let digit: Int
        package let probability: Double

        package init(digit: Int, probability: Double) {
            self.digit = digit
            self.probability = probability
        }
    }

    package enum Outcome {
        case digit(Int, confidence: Double, uncertain: Bool, warnings: [String], probabilities: [Double], top: [Ranked]?)
        case noDigit(reason: String)
        /// `top`: the digits the model ranks highest beneath "not a digit",
        /// when asked for, so that a digit taken for no digit can be seen.
        case notADigit(reason: String, probability: Double, top: [Ranked]?)
        case error(String)

        /// The outcome of one picture's classification; `top` K most
        /// probable digits when asked for.
        package init(_ classification: Classification, top: Int?) {
            func ranked(_ prediction: Prediction) -> [Ranked]? {
                top.map { prediction.top($0).map { Ranked(digit: $0.digit, probability: $0.probability) } }
            }
            switch classification.outcome {
            case .noDigit:
                self = .noDigit(reason: ClassificationLine.noDigitReason)
            case .notADigit(let prediction):
                self = .notADigit(reason: ClassificationLine.notADigitReason, probability: prediction.notADigit, top: ranked(prediction))
            case .digit(let prediction):
                self = .digit(
                    prediction.digit, confidence: prediction.confidence, uncertain: classification.isUncertain,
                    warnings: classification.warnings.map(\.rawValue), probabilities: prediction.probabilities,
                    top: ranked(prediction))
            }
        }
    }

    package let file: JSONFileName?
    package let index: Int?
    package let outcome: Outcome
    /// The 28x28 the model was given (the server's `preprocessed=true`).
    package let preprocessed: PreprocessedPicture?

    package init(file: JSONFileName?, index: Int?, outcome: Outcome, preprocessed: PreprocessedPicture? = nil) {
        self.file = file
        self.index = index
        self.outcome = outcome
        self.preprocessed = preprocessed
    }

    private enum CodingKeys: String, CodingKey {
        case file, fileBase64 = "file_base64", index, digit, confidence, uncertain, warnings, probabilities, top, reason, notADigit = "not_a_digit", error, preprocessed
    }

    package func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: CodingKeys.self)
        try object.encodeIfPresent(file?.file, forKey: .file)
        try object.encodeIfPresent(file?.base64, forKey: .fileBase64)
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
        case .notADigit(let reason, let probability, let top):
            try object.encodeNil(forKey: .digit)
            try object.encode(reason, forKey: .reason)
            try object.encode(probability, forKey: .notADigit)
            try object.encodeIfPresent(top, forKey: .top)
        case .error(let message):
            try object.encode(message, forKey: .error)
        }
        try object.encodeIfPresent(preprocessed, forKey: .preprocessed)
    }
}
