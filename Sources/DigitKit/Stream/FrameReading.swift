/// What the model made of the region of interest in one analysed frame.
public enum FrameReading: Equatable, Sendable {
    /// A digit at or above the uncertainty threshold, with nothing that
    /// makes it doubtful (such as several digits side by side).
    case confident(digit: Int, confidence: Double)
    /// A digit below the threshold, or a doubtful one: neither a sighting
    /// nor the absence of a digit.
    case uncertain(digit: Int, confidence: Double)
    /// The preprocessing found no digit in the region.
    case noDigit
}

/// A decision of `digits stream`, taken at an analysed frame.
public enum StreamEvent: Equatable, Sendable {
    /// `digit` became stable at `frame`; `confidence` is that frame's.
    case digit(Int, confidence: Double, frame: Int)
    /// The digit last reported has gone: nothing confident was seen for the
    /// stability count of frames, the last of which is `frame`.
    case clear(frame: Int)

    /// The input frame at which the event was decided.
    public var frame: Int {
        switch self {
        case .digit(_, _, let frame), .clear(let frame): return frame
        }
    }
}
