/// A second look at a picture, for when the model finds the ink step 8
/// chose is not a digit, or doubts it. One of the first two kinds, then
/// the third:
/// - where the rules chose the ink, the ink the locator sees, alone. The
///   rules keep their own ink where the locator agrees, and with it what
///   touches the digit there, such as a ruled line through it or a crop's
///   dark edge; the model then answers "not a digit", or a doubtful digit,
///   for a digit that is plainly there. The located ink leaves such
///   strokes out more often (docs/decisions.md, "A second look"). Marked
///   `PreprocessingWarning.locatedInkAlone`.
/// - where the locator's ink was chosen and is a window around the digit
///   (`WindowInk`: a meter's counter window taken whole), what lies inside
///   the window (docs/decisions.md, "A digit inside a window"). Marked
///   `PreprocessingWarning.insideWindow`.
/// - after "not a digit", when the first look's answer does not stand or
///   it has nothing to look at, the located ink without the box read
///   first: the locator marks a pen's tip or a card's edge beside the
///   digit too, and the heavier of the two is read first (docs/decisions.md,
///   "Other located ink"). Marked `PreprocessingWarning.otherLocatedInk`.
///
/// The second answer stands when it is a digit more probable than
/// everything else together (`leastConfidence`) and, after a doubtful
/// digit, another digit and a more probable one. It is always marked
/// uncertain: two views of the same picture disagreed.
public struct SecondLook: Sendable {
    /// What the second look is at, kept as found and normalized only when
    /// the look is taken, since most pictures never need it.
    enum Subject: Sendable {
        /// The located ink alone, at analysis size.
        case located(InkMap)
        /// The located ink, which may be a window, and the picture at
        /// analysis size, whose pixels inside the window are the digit's.
        case window(located: InkMap, picture: Raster)
    }

    let subject: Subject
    /// The box of the digit read first, at analysis size: the located ink
    /// outside it is the last look's.
    let read: BoundingBox
    /// Whether a doubtful digit asks for the second look too: where the
    /// rules chose the ink, only where the locator saw all of the subject
    /// (`InkDecision.rulesWhereLocated`). Where it saw part of a fine stroke
    /// (`rulesBeyondLocated`), its ink alone misses the rest: a 7's bar,
    /// and the 7 becomes a 1.
    let asksAfterDoubt: Bool
    /// The warning an answer of the subject's look carries.
    public let warning: PreprocessingWarning

    /// A second look at `ink`, the located ink of a picture whose subject's
    /// ink step 8 chose by `decision` and read in `read`.
    init(ink: InkMap, decision: InkDecision, read: BoundingBox) {
        subject = .located(ink)
        self.read = read
        asksAfterDoubt = decision == .rulesWhereLocated
        warning = .locatedInkAlone
    }

    /// A second look inside `located`, the located ink step 8 chose and
    /// read in `read`, if it is a window around the digit in `picture` (`WindowInk`).
    init(insideWindow located: InkMap, of picture: Raster, read: BoundingBox) {
        subject = .window(located: located, picture: picture)
        self.read = read
        asksAfterDoubt = true
        warning = .insideWindow
    }

    /// The second answer stands from this probability up.
    public static let leastConfidence = 0.5
    /// A first digit less probable than this is doubtful and, where the
    /// locator saw all of the subject, asks for a second look: the default
    /// threshold of an uncertain answer, whatever a caller's own. Only a
    /// second answer that disagrees replaces the first, so a caller's lower
    /// threshold never sees its confident answer turned uncertain by an
    /// agreeing look.
    public static let doubtfulBelow = UncertaintyRule.defaultThreshold

    /// A second look taken: the tensor it classified, the model's
    /// prediction for it, and the look's warning, which its answer carries.
    public struct Taken: Sendable {
        public let tensor: DigitTensor
        public let prediction: Prediction
        public let warning: PreprocessingWarning
    }

    /// The look taken after the model's `first` answer, its tensors
    /// (`looks(after:)`) classified by `predict` in turn until an answer
    /// stands (`answer`); nil when `first` asks for no second look, there is
    /// nothing to look at, or `predict` gives no prediction.
    public func take<E: Error>(after first: Prediction,
                               predict: (DigitTensor) throws(E) -> Prediction?) throws(E) -> Taken? {
        var taken: Taken?
        for look in looks(after: first) {
            guard let again = look(), let prediction = try predict(again.tensor) else { continue }
            taken = Taken(tensor: again.tensor, prediction: prediction, warning: again.warning)
            if Self.stands(prediction, after: first) { break }
        }
        return taken
    }

    /// `take(after:predict:)` for a model answered asynchronously (the server's batcher).
    public func take<E: Error>(after first: Prediction,
                               predict: (DigitTensor) async throws(E) -> Prediction?) async throws(E) -> Taken? {
        var taken: Taken?
        for look in looks(after: first) {
            guard let again = look(), let prediction = try await predict(again.tensor) else { continue }
            taken = Taken(tensor: again.tensor, prediction: prediction, warning: again.warning)
            if Self.stands(prediction, after: first) { break }
        }
        return taken
    }

    /// What the model is answered with after the looks.
    public struct Answer: Sendable {
        /// The prediction that stands.
        public let prediction: Prediction
        /// The preprocessing's warnings, with the look's `warning` when the second look's answer stands.
        public let warnings: [PreprocessingWarning]
        /// The tensor whose prediction stands.
        public let tensor: DigitTensor
    }

    /// The 28x28 tensor of the subject's look, whose answer carries
    /// `warning`, to classify after the model's `first` answer; nil when
    /// `first` asks for no second look ("not a digit" asks, and a digit
    /// under `doubtfulBelow` where `asksAfterDoubt`), the located ink is no
    /// window, or no digit is there. `take(after:predict:)` takes the other
    /// located ink's look too.
    public func tensor(after first: Prediction) -> DigitTensor? {
        looks(after: first).first?()?.tensor
    }

    /// A look's tensor and the warning its answer carries.
    typealias Look = (tensor: DigitTensor, warning: PreprocessingWarning)

    /// The looks to take after the model's `first` answer, in order, each
    /// normalized only when called (nil: nothing to look at there). "Not a
    /// digit" asks for them all, a digit under `doubtfulBelow` where
    /// `asksAfterDoubt` for the subject's alone.
    func looks(after first: Prediction) -> [() -> Look?] {
        guard first.isNotADigit || (asksAfterDoubt && Self.doubts(first)) else { return [] }
        let subjects: () -> Look? = switch subject {
        case .located(let ink): { Preprocessor.normalized(located: ink).map { ($0, warning) } }
        case .window(let located, let picture): {
            WindowInk.digit(in: located, gray: picture).flatMap(Preprocessor.normalized(located:)).map { ($0, warning) }
        }
        }
        guard first.isNotADigit else { return [subjects] }
        let others: () -> Look? = { [self] in
            OtherLocatedInk.tensor(in: located, apartFrom: read).map { ($0, .otherLocatedInk) }
        }
        return [subjects, others]
    }

    /// The located ink the looks are at.
    var located: InkMap {
        switch subject {
        case .located(let ink): ink
        case .window(let located, _): located
        }
    }

    /// The answer after the model's `first` prediction for `tensor` and
    /// the `second` look taken after it (`take(after:predict:)`; nil when
    /// none was): the second where it is a digit at `leastConfidence` or
    /// more after "not a digit", or another digit than a doubtful first
    /// (under `doubtfulBelow`) and more probable than it; with the look's
    /// warning added to `warnings`.
    public static func answer(_ first: Prediction, for tensor: DigitTensor, warnings: [PreprocessingWarning],
                              second: Taken?) -> Answer {
        guard let second, stands(second.prediction, after: first) else {
            return Answer(prediction: first, warnings: warnings, tensor: tensor)
        }
        return Answer(prediction: second.prediction, warnings: warnings + [second.warning], tensor: second.tensor)
    }

    /// Whether a look's `second` prediction stands after the `first`: a
    /// digit at `leastConfidence` or more, after "not a digit" or replacing a doubtful digit.
    static func stands(_ second: Prediction, after first: Prediction) -> Bool {
        !second.isNotADigit && second.confidence >= leastConfidence
            && (first.isNotADigit || replaces(doubtful: first, with: second))
    }

    /// Whether `second` replaces `first`, a digit: `first` is doubtful, and
    /// `second` another digit, more probable. An agreeing look leaves the
    /// first answer as it was.
    static func replaces(doubtful first: Prediction, with second: Prediction) -> Bool {
        doubts(first) && second.digit != first.digit && second.confidence > first.confidence
    }

    /// Whether the first answer, a digit, is doubtful: under `doubtfulBelow`
    /// (a confidence that is not a number never is). The one test both the
    /// asking and the answering use.
    static func doubts(_ first: Prediction) -> Bool {
        first.confidence < doubtfulBelow
    }
}

extension DigitModel {
    /// The answer for `tensor`, made of `stages`, one picture at a time:
    /// the model's prediction, then a second look where it asks for one.
    func answer(for tensor: DigitTensor, of stages: PreprocessingStages) throws(DigitError) -> SecondLook.Answer {
        let first = try predict(tensor)
        let second = try stages.secondLook?.take(after: first) { (again) throws(DigitError) in try predict(again) }
        return SecondLook.answer(first, for: tensor, warnings: stages.warnings, second: second)
    }
}
