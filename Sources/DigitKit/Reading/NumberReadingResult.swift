/// What a batch reading (`NumberReader.read(_:length:options:keepingImages:each:)`) made
/// of one input, delivered in input order.
public struct NumberReadingResult: Sendable {
    /// The two things that can come of an input.
    public enum Outcome: Sendable {
        /// The reading; one without characters when the picture holds no digit.
        case read(NumberReading)
        /// The input could not be read or decoded (the error's subject is the input's label).
        case failed(DigitError)
    }

    /// The input's 0-based position in the run's sequence of inputs.
    public let position: Int
    /// Where the input came from, as given with it.
    public let origin: InputOrigin
    /// The reading, or the error that stopped the input.
    public let outcome: Outcome
    /// The picture as decoded, when the run was asked to keep it (to draw
    /// the reading over it, as `digits read --steps` does); nil otherwise.
    public let image: GrayImage?

    /// The reading, if the input could be read.
    public var reading: NumberReading? {
        if case .read(let reading) = outcome { return reading }
        return nil
    }

    /// The error, if the input failed.
    public var error: DigitError? {
        if case .failed(let error) = outcome { return error }
        return nil
    }
}
