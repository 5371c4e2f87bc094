/// Turns a reading per analysed frame into events that do not flicker,
/// the way a barcode scanner such as zbarcam does: a digit is reported
/// once `stableFrames` consecutive frames read it with confidence, and not
/// again while it stays; a "clear" once, after a reported digit, as many
/// consecutive frames have shown no confident digit. That re-arms it, so
/// the same digit shown again is a new event. Another digit that becomes
/// stable while one is reported (a sheet swapped) is reported at once, with
/// no clear in between.
///
/// One odd frame (a hand passing, motion blur) breaks a run but is
/// shorter than the count, so it neither reports nor clears anything.
public struct StabilityTracker: Sendable {
    /// Consecutive frames needed for a digit and for a clear (K).
    public let stableFrames: Int
    /// The digit last reported and not cleared since.
    public private(set) var reported: Int?
    /// The digit of the current run of confident frames, and its length.
    private var candidate: Int?
    private var run = 0
    /// Consecutive frames without a confident digit.
    private var absent = 0

    /// A tracker that has reported nothing yet; `stableFrames` (K) must be at
    /// least 1, which a precondition checks.
    public init(stableFrames: Int) {
        precondition(stableFrames >= 1, "the stability count must be at least 1")
        self.stableFrames = stableFrames
    }

    /// Takes the reading of analysed frame `frame`; returns the event it decides, if any.
    public mutating func observe(_ reading: FrameReading, frame: Int) -> StreamEvent? {
        guard case .confident(let digit, let confidence) = reading else {
            candidate = nil
            run = 0
            absent += 1
            guard reported != nil, absent >= stableFrames else { return nil }
            reported = nil
            return .clear(frame: frame)
        }
        absent = 0
        if candidate == digit {
            run += 1
        } else {
            candidate = digit
            run = 1
        }
        guard run >= stableFrames, reported != digit else { return nil }
        reported = digit
        return .digit(digit, confidence: confidence, frame: frame)
    }
}
