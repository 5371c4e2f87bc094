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
        /// The picture holds something the model finds is not a digit (a
        /// letter, a symbol, a scribble): "not a digit" is more probable than
        /// any digit (`Prediction.isNotADigit`).
        case notADigit(Prediction)
    }

    /// A prediction, or no digit.
    public let outcome: Outcome
    /// Why the prediction is doubtful whatever its confidence (several
    /// digits side by side, a blob); empty for most pictures.
    public let warnings: [PreprocessingWarning]
    /// Whether the prediction is doubtful under the rule it was made with
    /// (`DigitClassifier.uncertainty`); false without a digit or when it is not a digit.
    public let isUncertain: Bool

    /// The answer for `prediction` (nil: no digit) and `warnings`, marked
    /// uncertain by `rule`.
    public init(prediction: Prediction?, warnings: [PreprocessingWarning], rule: UncertaintyRule) {
        switch prediction {
        case nil: outcome = .noDigit
        case let prediction? where prediction.isNotADigit: outcome = .notADigit(prediction)
        case let prediction?: outcome = .digit(prediction)
        }
        self.warnings = warnings
        self.isUncertain = prediction.map { !$0.isNotADigit && rule.isUncertain($0, warnings: warnings) } ?? false
    }

    /// The prediction, if a digit was found.
    public var prediction: Prediction? {
        if case .digit(let prediction) = outcome { return prediction }
        return nil
    }
}
