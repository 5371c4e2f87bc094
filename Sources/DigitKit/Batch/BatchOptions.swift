/// How a batch run (`DigitClassifier.classify(_:options:each:)`, and
/// `NumberReader.read(_:length:options:keepingImages:each:)`) spreads its work.
public struct BatchOptions: Sendable {
    // Each field stays within the range `init` gives it when it is set
    // later (a batch of 0, no worker, a delay of infinity), so that every
    // reader, a run among them, sees the value that is used.

    /// Inputs per forward pass, at most (for a reading, the pictures whose
    /// candidate pieces go to the digit model in one call); at least 1.
    public var batchSize: Int {
        didSet {
            batchSize = max(1, batchSize)
            maxInFlight = max(maxInFlight, batchSize)
        }
    }
    /// Threads that read, decode and preprocess inputs; at least 1.
    public var workers: Int {
        didSet { workers = max(1, workers) }
    }
    /// Inputs taken from the sequence but not yet delivered, at most (at
    /// least `batchSize`): what bounds memory, however many inputs the
    /// sequence holds.
    public var maxInFlight: Int {
        didSet { maxInFlight = max(batchSize, maxInFlight) }
    }
    /// A partly filled batch goes to the model once the sequence has kept a
    /// worker waiting for its next input this long (in seconds, at most
    /// `longestFlushDelay`), so that the results of a slow source (a pipe)
    /// are not held back waiting for a full batch.
    public var flushDelay: Double {
        didSet { flushDelay = Self.bounded(flushDelay) }
    }

    /// The longest `flushDelay`, a day: longer (infinity) would overflow a
    /// timed wait's deadline, and means the same in practice.
    public static let longestFlushDelay = 86_400.0

    /// `batchSize` 64 and one worker per available core by default (see
    /// BENCHMARKS.md for how these were chosen); `maxInFlight` two batches
    /// and two inputs per worker beyond, unless given.
    public init(batchSize: Int = 64, workers: Int = AvailableCores.count, maxInFlight: Int? = nil, flushDelay: Double = 0.02) {
        self.batchSize = max(1, batchSize)
        self.workers = max(1, workers)
        self.maxInFlight = max(self.batchSize, maxInFlight ?? (2 * self.batchSize + 2 * self.workers))
        self.flushDelay = Self.bounded(flushDelay)
    }

    /// `delay` within 0...`longestFlushDelay`; NaN, like a negative delay, is none.
    private static func bounded(_ delay: Double) -> Double {
        delay >= 0 ? min(delay, longestFlushDelay) : 0
    }
}

/// Figures about a finished batch run.
public struct BatchStatistics: Sendable {
    /// Inputs delivered.
    public var inputs = 0
    /// Forward passes made, failed ones included.
    public var forwardPasses = 0
    /// Seconds spent in forward passes, failed ones included.
    public var forwardSeconds = 0.0
    /// Seconds from the start of the run to the last result delivered.
    public var totalSeconds = 0.0
}
