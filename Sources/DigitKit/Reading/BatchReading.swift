/// Reading many inputs: the batch run every command builds on, with a whole
/// reading as each worker's result.
extension NumberReader {
    /// Reads the number in every input of `inputs` and calls `each` with its
    /// result, in input order, on the calling thread: the reading (without
    /// characters when there is no digit) or the input's own error (one bad
    /// input costs only its own result).
    ///
    /// Each input is decoded, cut into characters and its candidate pieces
    /// classified on one of `options.workers` threads (a picture's pieces
    /// are one forward pass, run on the worker: the model is safe to share;
    /// call `TorchRuntime.setThreadCount(1)` first, as the CLI does, so that
    /// the workers' forward passes do not each spread over every core);
    /// at most `options.maxInFlight` inputs are held at once, so memory stays
    /// flat on any number of inputs, and results are handed over in batches
    /// of `options.batchSize` (1 hands each over as soon as it is next). The
    /// sequence is iterated from the worker threads, one `next()` at a time.
    ///
    /// With `keepingImages`, each result also holds its decoded picture
    /// (memory for `maxInFlight` pictures at most).
    ///
    /// A forward pass that fails (a `DigitError` of the model) ends the run,
    /// and so does an error thrown by `each`; either is rethrown, and the
    /// results delivered before it stand. The statistics count inputs and
    /// time; the forward passes run on the workers and are not counted.
    @discardableResult
    public func read<Inputs: Sequence & Sendable>(_ inputs: Inputs, length: Int? = nil, options: BatchOptions = BatchOptions(batchSize: 1),
                                                  keepingImages: Bool = false,
                                                  each: (NumberReadingResult) throws -> Void) throws -> BatchStatistics
    where Inputs.Element == ClassificationInput {
        try Self.check(length: length)
        let run = BatchRun<PreparedReading>(inputs: AnyIterator(inputs.makeIterator()), options: options) { input in
            prepareReading(input, length: length, keepingImage: keepingImages)
        }
        return try run.runBatches { first, batch in
            for (offset, slot) in batch.enumerated() {
                let outcome: NumberReadingResult.Outcome, image: GrayImage?
                switch slot.prepared {
                case .read(let reading, let kept): (outcome, image) = (.read(reading), kept)
                case .failed(let error): (outcome, image) = (.failed(error), nil)
                case .modelFailed(let error): throw error
                }
                try each(NumberReadingResult(position: first + offset, origin: slot.origin, outcome: outcome, image: image))
            }
        }
    }

    /// Decodes and reads one input, on a worker thread.
    @Sendable
    func prepareReading(_ input: ClassificationInput, length: Int?, keepingImage: Bool) -> PreparedReading {
        let image: GrayImage
        do throws(DigitError) {
            image = try input.decoded(with: decoder)
        } catch {
            return .failed(error)
        }
        // The length was checked before the run: what read throws now is the model's.
        do throws(DigitError) {
            return .read(try read(image, length: length), image: keepingImage ? image : nil)
        } catch {
            return .modelFailed(error)
        }
    }
}

/// What a worker made of one input for a batch reading.
enum PreparedReading: Sendable {
    case read(NumberReading, image: GrayImage?)
    /// The input could not be read or decoded: its own result.
    case failed(DigitError)
    /// The model failed: the run stops.
    case modelFailed(DigitError)
}
