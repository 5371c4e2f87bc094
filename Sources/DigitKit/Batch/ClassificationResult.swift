/// What a batch run made of one input, delivered in input order.
public struct ClassificationResult: Sendable {
    /// The four things that can come of an input.
    public enum Outcome: Sendable {
        /// The model's answer for the digit found.
        case digit(Prediction)
        /// The picture decoded but holds no digit (blank or near-blank): no guess is made.
        case noDigit
        /// The picture holds something, but the model finds it is not a
        /// digit (a letter, a symbol, a scribble): "not a digit" is more
        /// probable than any digit. Only models with a rejection class say so.
        case notADigit(Prediction)
        /// The input could not be read or decoded (the error's subject is the input's label).
        case failed(DigitError)
    }

    /// The input's 0-based position in the run's sequence of inputs.
    public let position: Int
    /// Where the input came from, as given with it.
    public let origin: InputOrigin
    /// A prediction, no digit, or the error that stopped the input.
    public let outcome: Outcome
    /// Exactly the tensor the model was given for the prediction that stands (after a second
    /// look, the located ink's or the window's inside: `SecondLook`); nil without a digit or on failure.
    public let tensor: DigitTensor?
    /// Why a prediction is doubtful whatever its confidence (several digits
    /// side by side, say); empty for most pictures. A result with warnings
    /// is uncertain (`isUncertain(under:)`).
    public let warnings: [PreprocessingWarning]

    /// Whether the prediction is doubtful under `rule` (by default the
    /// threshold of `digits classify`); false without a digit.
    public func isUncertain(under rule: UncertaintyRule = UncertaintyRule()) -> Bool {
        prediction.map { rule.isUncertain($0, warnings: warnings) } ?? false
    }

    /// The single-picture answer for this result, marked by `rule`; nil
    /// when the input failed.
    public func classification(under rule: UncertaintyRule = UncertaintyRule()) -> Classification? {
        guard error == nil else { return nil }
        if case .notADigit(let prediction) = outcome { return Classification(prediction: prediction, warnings: warnings, rule: rule) }
        return Classification(prediction: prediction, warnings: warnings, rule: rule)
    }

    /// The prediction, if a digit was found.
    public var prediction: Prediction? {
        if case .digit(let prediction) = outcome { return prediction }
        return nil
    }

    /// The error, if the input failed.
    public var error: DigitError? {
        if case .failed(let error) = outcome { return error }
        return nil
    }
}
