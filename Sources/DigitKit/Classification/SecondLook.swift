/// A second look at a picture whose ink the rules chose, for when the model
/// finds that ink is not a digit, or is unsure of it: the ink the locator
/// sees, alone. The rules keep their own ink where the locator agrees, and
/// with it what touches the digit there, such as a ruled line through it or
/// a crop's dark edge; the model then answers "not a digit", or a doubtful
/// digit, for a digit that is plainly there. The located ink leaves such
/// strokes out more often (docs/decisions.md, "A second look").
///
/// After "not a digit" the second answer stands when it is a digit more
/// probable than everything else together (`leastConfidence`); after a
/// doubtful digit, when it is also more probable than the first. It is
/// always marked uncertain (`PreprocessingWarning.locatedInkAlone`): the
/// first view of the picture was not enough.
public struct SecondLook: Sendable {
    /// The located ink alone, at analysis size: normalized only when the
    /// second look is taken, since most pictures never need it.
    let ink: InkMap
    /// Whether a doubtful digit asks for the second look too: only where the
    /// locator saw all of the subject (`InkDecision.rulesWhereLocated`).
    /// Where it saw part of a fine stroke (`rulesBeyondLocated`), its ink
    /// alone misses the rest: a 7's bar, and the 7 becomes a 1.
    let afterDoubt: Bool

    /// A second look at `ink`, the located ink of a picture whose subject's
    /// ink step 8 chose by `decision`.
    init(ink: InkMap, decision: InkDecision) {
        self.ink = ink
        self.afterDoubt = decision == .rulesWhereLocated
    }

    /// The second answer stands from this probability up.
    public static let leastConfidence = 0.5
    /// A first digit less probable than this is doubtful and, where the
    /// locator saw all of the subject, asks for a second look: the default
    /// threshold of an uncertain answer, whatever a caller's own.
    public static let doubtfulBelow = UncertaintyRule.defaultThreshold

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
    /// model's `first` answer; nil when that answer stands ("not a digit"
    /// asks for a second look, and a digit under `doubtfulBelow` where
    /// `afterDoubt`) or the located ink holds no digit.
    public func tensor(after first: Prediction) -> DigitTensor? {
        let asks = first.isNotADigit || (afterDoubt && first.confidence < Self.doubtfulBelow)
        return asks ? Preprocessor.normalized(located: ink) : nil
    }

    /// The answer after the model's `first` prediction for `tensor` and, if
    /// a second look was taken (`tensor(after:)`), its `second` prediction
    /// for that look's tensor: the second where it is a digit at
    /// `leastConfidence` or more after "not a digit", or after a first
    /// digit under `doubtfulBelow` that it is more probable than; with
    /// `locatedInkAlone` added to `warnings`.
    public static func answer(_ first: Prediction, for tensor: DigitTensor, warnings: [PreprocessingWarning],
                              second: (tensor: DigitTensor, prediction: Prediction)?) -> Answer {
        let replaces = first.isNotADigit || first.confidence < doubtfulBelow
        guard replaces, let second, !second.prediction.isNotADigit, second.prediction.confidence >= leastConfidence,
              first.isNotADigit || second.prediction.confidence > first.confidence else {
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
