/// When an answer is marked uncertain: the one rule behind the library's
/// single-picture answer, the batch results, `digits classify` and `stream`,
/// so that they cannot disagree about the same picture.
public struct UncertaintyRule: Equatable, Sendable {
    /// The threshold of `digits classify` and `digits stream` unless
    /// --uncertain-below says otherwise.
    public static let defaultThreshold = 0.8

    /// Predictions less probable than this are uncertain (0-1).
    public var uncertainBelow: Double

    /// The rule with this threshold, 0.8 by default; nothing is checked.
    public init(uncertainBelow: Double = UncertaintyRule.defaultThreshold) {
        self.uncertainBelow = uncertainBelow
    }

    /// Whether `prediction` is doubtful: below the threshold, or whatever
    /// its confidence when the preprocessing warned about the picture
    /// (several digits, a blob) or the model finds it may well not be a
    /// digit (`Prediction.notADigitDoubt`). A confidence that is not a
    /// number is uncertain too.
    public func isUncertain(_ prediction: Prediction, warnings: [PreprocessingWarning]) -> Bool {
        !(prediction.confidence >= uncertainBelow) || !warnings.isEmpty || prediction.notADigit >= Prediction.notADigitDoubt
    }
}
