/// A second look at a picture whose ink the rules chose, for when the model
/// finds that ink is not a digit: the ink the locator sees, alone. The rules
/// keep their own ink where the locator agrees, and with it what touches
/// the digit there, such as a ruled line through it or a crop's dark edge;
/// the model then answers "not a digit" for a digit that is plainly there.
/// The located ink leaves such strokes out more often (docs/decisions.md,
/// "A second look").
///
/// The second answer stands only when it is a digit more probable than
/// everything else together (`leastConfidence`), and it is always marked
/// uncertain (`PreprocessingWarning.locatedInkAlone`): two views of the
/// same picture disagreed.
public struct SecondLook: Sendable {
    /// The located ink alone, at analysis size: normalized only when the
    /// second look is taken, since most pictures never need it.
    let ink: InkMap

    /// The second answer stands from this probability up.
    public static let leastConfidence = 0.5

    /// What the model is answered with after both looks.
    public struct Answer: Sendable {
        /// The prediction that stands.
        public let prediction: Prediction
        /// The preprocessing's warnings, with `locatedInkAlone` when the second look's answer stands.
        public let warnings: [PreprocessingWarning]
        /// The tensor whose prediction stands.
        public let tensor: DigitTensor
    }

    /// The 28x28 tensor of the located ink alone to classify after the
    /// model's `first` answer; nil when that answer stands (only "not a
    /// digit" asks for a second look) or the located ink holds no digit.
    public func tensor(after first: Prediction) -> DigitTensor? {
        first.isNotADigit ? Preprocessor.normalized(located: ink) : nil
    }

    /// The answer after the model's `first` prediction for `tensor` and, if
    /// a second look was taken (`tensor(after:)`), its `second` prediction
    /// for that look's tensor: the second where it is a digit at
    /// `leastConfidence` or more, with `locatedInkAlone` added to `warnings`.
    public static func answer(_ first: Prediction, for tensor: DigitTensor, warnings: [PreprocessingWarning],
                              second: (tensor: DigitTensor, prediction: Prediction)?) -> Answer {
        guard first.isNotADigit, let second, !second.prediction.isNotADigit,
              second.prediction.confidence >= leastConfidence else {
            return Answer(prediction: first, warnings: warnings, tensor: tensor)
        }
        return Answer(prediction: second.prediction, warnings: warnings + [.locatedInkAlone], tensor: second.tensor)
    }
}

extension DigitModel {
    /// The answer for `tensor`, made of `stages`, one picture at a time:
    /// the model's prediction, then a second look where it asks for one.
    func answer(for tensor: DigitTensor, of stages: PreprocessingStages) throws(DigitError) -> SecondLook.Answer {
        let first = try predict(tensor)
        let second = try stages.secondLook?.tensor(after: first).map { (again) throws(DigitError) in (again, try predict(again)) }
        return SecondLook.answer(first, for: tensor, warnings: stages.warnings, second: second)
    }
}
