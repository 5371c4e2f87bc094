import DigitsJSON

/// The `eval --json` object, keys in this order (docs/commands.md, "eval"):
///
///     {"accuracy", "correct", "total", "no_digit", "confusion", "per_class",
///      "images_per_second", "forward_images_per_second", "ms_per_image",
///      "forward_ms_per_image", "batch", "threads", "misclassified"}
///
/// "confusion" is 10 rows (true digit) of 10 counts (predicted digit);
/// "per_class" 10 objects {"digit", "precision", "recall", "support"}, null
/// where a ratio has no denominator; "misclassified" the first --misclassified
/// mistakes as {"index", "label", "predicted", "confidence"}.
struct EvaluationLine: Encodable {
    struct DigitScores: Encodable {
        let digit: Int
        let precision: Double?
        let recall: Double?
        let support: Int

        private enum CodingKeys: String, CodingKey { case digit, precision, recall, support }

        func encode(to encoder: any Encoder) throws {
            var object = encoder.container(keyedBy: CodingKeys.self)
            try object.encode(digit, forKey: .digit)
            try object.encodeOrNull(precision, forKey: .precision)
            try object.encodeOrNull(recall, forKey: .recall)
            try object.encode(support, forKey: .support)
        }
    }

    struct Mistake: Encodable {
        let index: Int
        let label: Int
        let predicted: Int
        let confidence: Double
    }

    let accuracy: Double
    let correct: Int
    let total: Int
    let noDigit: Int
    let notADigit: Int
    let confusion: [[Int]]
    let perClass: [DigitScores]
    let imagesPerSecond: Double
    let forwardImagesPerSecond: Double
    let msPerImage: Double
    let forwardMsPerImage: Double
    let batch: Int
    let threads: Int
    let misclassified: [Mistake]

    private enum CodingKeys: String, CodingKey {
        case accuracy, correct, total, noDigit = "no_digit", notADigit = "not_a_digit", confusion, perClass = "per_class"
        case imagesPerSecond = "images_per_second", forwardImagesPerSecond = "forward_images_per_second"
        case msPerImage = "ms_per_image", forwardMsPerImage = "forward_ms_per_image", batch, threads, misclassified
    }
}
