/// The engine behind `DigitClassifier.classify(_:options:each:)` and
/// `NumberReader.read(_:length:options:keepingImages:each:)`: worker threads take inputs
/// from the sequence, prepare them in parallel (`Prepared`: for
/// classification a tensor, for reading a whole reading), and leave each
/// result in a ring of `maxInFlight` slots; the calling thread collects them
/// in input order, in batches (for classification it runs the model on a
/// batch at a time while the workers go on with the next inputs), and hands
/// the results over in order.
///
/// Two locks: `inputLock` serializes the sequence's iterator (which may
/// block, reading a pipe), and `state` guards the ring and the counters, so
/// that a worker waiting for input never keeps finished results from being
/// delivered. Where both are held, `inputLock` is taken first.
final class BatchRun<Prepared: Sendable>: @unchecked Sendable {
    struct Slot {
        let origin: InputOrigin
        let prepared: Prepared
    }

    private let options: BatchOptions
    private let prepare: @Sendable (ClassificationInput) -> Prepared

    // Guarded by inputLock.
    private let inputLock = ConditionLock()
    /// The caller's sequence, type-erased so that the worker closures capture no generic type.
    private var inputs: AnyIterator<ClassificationInput>
    private var taken = 0
    private var inputEnded = false

    // Guarded by state.
    private let state = ConditionLock()
    private var slots: [Slot?]
    /// Positions reserved or taken and not yet delivered (their batch handed
    /// over in full); at most maxInFlight.
    private var inFlight = 0
    private var delivered = 0
    /// The number of inputs, once the sequence has ended.
    private var total: Int?
    private var stopping = false
    private var liveWorkers = 0
    /// Workers waiting for or inside the iterator's next(), which cannot be interrupted.
    private var workersReading = 0
    /// When the call to next() under way started; nil when none is.
    private var readStarted: Double?

    init(inputs: AnyIterator<ClassificationInput>, options: BatchOptions, prepare: @escaping @Sendable (ClassificationInput) -> Prepared) {
        self.inputs = inputs
        self.options = options
        self.prepare = prepare
        self.slots = Array(repeating: nil, count: options.maxInFlight)
    }

    /// Runs the whole batch: `body` is called on the calling thread with
    /// each batch (its first position and its results, in input order) while
    /// the workers go on with the next inputs. An error from `body` stops the
    /// workers and is rethrown; the batches handed over before it stand.
    ///
    /// `whileStarting` runs on the calling thread once the workers have
    /// started, before the first batch is awaited: work that the first
    /// batch needs and the workers do not (loading a model) overlaps
    /// theirs. An error from it stops the workers, nothing is handed over,
    /// and it is rethrown.
    func runBatches(whileStarting: () throws -> Void = {}, _ body: (_ first: Int, _ batch: [Slot]) throws -> Void) throws -> BatchStatistics {
        var statistics = BatchStatistics()
        let started = monotonicSeconds()
        try startWorkers()
        defer { stopWorkers() }
        try whileStarting()
        while true {
            let (first, batch) = nextBatch()
            if batch.isEmpty { break }
            try body(first, batch)
            statistics.inputs += batch.count
            release(batch.count)
            statistics.totalSeconds = monotonicSeconds() - started
        }
        return statistics
    }

    /// Waits for the next batch in input order and returns its first
    /// position and its results; none when every input has been delivered.
    ///
    /// A batch is `batchSize` results in a row, or the last ones of the
    /// sequence. Batches therefore start at the same positions whatever the
    /// number of workers or the timing, and the model, whose float results
    /// can differ in their last bits with the make-up of a batch, gives the
    /// same results on every run. Only when the sequence itself stalls (a
    /// pipe with nothing to read for `flushDelay`) does a partial batch go
    /// ahead, so that its results are not held back; and only when a batch's
    /// forward pass fails (`IsolatedForward`) do its pictures go one by one,
    /// with results that may differ from the batch's in their last bits.
    private func nextBatch() -> (Int, [Slot]) {
        state.withLock {
            while true {
                let capacity = slots.count
                var ready = 0
                while ready < options.batchSize, slots[(delivered + ready) % capacity] != nil { ready += 1 }
                if let total, delivered == total { return (delivered, []) }
                let stalledFor = readStarted.map { monotonicSeconds() - $0 } ?? 0
                if ready == options.batchSize || (total != nil && delivered + ready == total) || (ready > 0 && stalledFor >= options.flushDelay) {
                    let first = delivered
                    let batch = (0..<ready).map { offset -> Slot in
                        let index = (first + offset) % capacity
                        defer { slots[index] = nil }
                        return slots[index]!
                    }
                    delivered += ready
                    return (first, batch)
                }
                if ready > 0 && readStarted != nil {
                    state.wait(seconds: options.flushDelay - stalledFor)
                } else {
                    state.wait()
                }
            }
        }
    }

    /// Frees the slots of a batch once its results are delivered, so that
    /// what is taken and not yet delivered never exceeds maxInFlight.
    private func release(_ count: Int) {
        state.withLock {
            inFlight -= count
            state.broadcast()
        }
    }

    private func startWorkers() throws(DigitError) {
        var started = 0
        for _ in 0..<options.workers {
            state.withLock { liveWorkers += 1 }
            guard DetachedThread.start({ [self] in work() }) else {
                state.withLock { liveWorkers -= 1 }
                break
            }
            started += 1
        }
        // Fewer workers than asked is slower but correct; none is not.
        if started == 0 {
            throw DigitError(.outOfMemory, "cannot start a worker thread")
        }
    }

    /// Asks the workers to stop and waits for those not blocked in the
    /// iterator (they leave as soon as it returns).
    private func stopWorkers() {
        state.withLock {
            stopping = true
            state.broadcast()
            while liveWorkers > workersReading { state.wait() }
        }
    }

    /// One worker: reserve a slot, take the next input, prepare it, leave the
    /// result in its slot; until the sequence ends or the run stops.
    private func work() {
        while true {
            let reserved: Bool = state.withLock {
                while !stopping && total == nil && inFlight >= slots.count { state.wait() }
                guard !stopping, total == nil else { return false }
                inFlight += 1
                workersReading += 1
                return true
            }
            guard reserved else { break }
            let next: (position: Int, input: ClassificationInput)? = inputLock.withLock {
                guard !inputEnded else { return nil }
                state.withLock {
                    readStarted = monotonicSeconds()
                    state.broadcast()
                }
                let input = inputs.next()
                state.withLock { readStarted = nil }
                guard let input else {
                    inputEnded = true
                    return nil
                }
                defer { taken += 1 }
                return (taken, input)
            }
            guard let next else {
                let count = inputLock.withLock { taken }
                state.withLock {
                    workersReading -= 1
                    inFlight -= 1
                    total = count
                    state.broadcast()
                }
                break
            }
            let stop = state.withLock {
                workersReading -= 1
                return stopping
            }
            if stop { break }
            let slot = Slot(origin: next.input.origin, prepared: prepare(next.input))
            state.withLock {
                slots[next.position % slots.count] = slot
                state.broadcast()
            }
        }
        state.withLock {
            liveWorkers -= 1
            state.broadcast()
        }
    }
}

extension BatchRun where Prepared == PreparedInput {
    /// Runs a classification: `forward` is called on the calling thread with
    /// each batch's tensors, `deliver` with each result in input order, and
    /// `afterEachBatch` once a batch's results are all delivered. An error
    /// from any of them stops the workers and is rethrown; the results
    /// delivered before it stand. `whileStarting`: as in `runBatches`.
    func run(whileStarting: () throws -> Void, forward: ([DigitTensor]) throws -> [Prediction],
             deliver: (ClassificationResult) throws -> Void, afterEachBatch: () throws -> Void) throws -> BatchStatistics {
        try runForwarding(whileStarting: whileStarting, tensors: { prepared in
            if case .tensor(let tensor, _, _) = prepared { return [tensor] }
            return []
        }, forward: forward, deliver: { position, slot, predictions in
            let outcome: ClassificationResult.Outcome
            var tensor: DigitTensor?
            var warnings: [PreprocessingWarning] = []
            switch slot.prepared {
            case .tensor(let given, let doubts, let look):
                let first = predictions.first!
                // Few pictures (the model finds them not a digit, or
                // doubts them), so forwarded alone rather than batched.
                let second = try look?.take(after: first) { again in try forward([again]).first }
                let answer = SecondLook.answer(first, for: given, warnings: doubts, second: second)
                (tensor, warnings) = (answer.tensor, answer.warnings)
                outcome = answer.prediction.isNotADigit ? .notADigit(answer.prediction) : .digit(answer.prediction)
            case .noDigit: outcome = .noDigit
            case .failed(let error): outcome = .failed(error)
            }
            try deliver(ClassificationResult(position: position, origin: slot.origin, outcome: outcome, tensor: tensor, warnings: warnings))
        }, afterEachBatch: afterEachBatch)
    }
}

/// What a worker made of one input, before the forward pass.
enum PreparedInput: Sendable {
    case tensor(DigitTensor, warnings: [PreprocessingWarning], secondLook: SecondLook?)
    case noDigit
    case failed(DigitError)
}
