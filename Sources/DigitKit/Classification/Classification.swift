/// The answer for one picture (`DigitClassifier.classification(ofFileAtPath:)`):
/// the prediction or why there is none, what the preprocessing warned about,
/// and whether the answer is uncertain under the classifier's rule.
public struct Classification: Sendable {
    /// What came of the picture.
    public enum Outcome: Sendable {
        /// The model's answer for the digit found.
        case digit(Prediction)
        /// The picture holds no digit (blank or near-blank): no guess is made.
        case noDigit
    }

    /// A prediction, or no digit.
    public let outcome: Outcome
    /// Why the prediction is doubtful whatever its confidence (several
    /// digits side by side, a blob); empty for most pictures.
    public let warnings: [PreprocessingWarning]
    /// Whether the prediction is doubtful under the rule it was made with
    /// (`DigitClassifier.uncertainty`); false without a digit.
    public let isUncertain: Bool

    /// The answer for `prediction` (nil: no digit) and `warnings`, marked
    /// uncertain by `rule`.
    public init(prediction: Prediction?, warnings: [PreprocessingWarning], rule: UncertaintyRule) {
        self.outcome = prediction.map { .digit($0) } ?? .noDigit
        self.warnings = warnings
        self.isUncertain = prediction.map { rule.isUncertain($0, warnings: warnings) } ?? false
    }

    /// The prediction, if a digit was found.
    public var prediction: Prediction? {
        if case .digit(let prediction) = outcome { return prediction }
        return nil
    }
}
