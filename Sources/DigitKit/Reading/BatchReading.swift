/// Reading many inputs: the batch run every command builds on, with a picture
/// cut into characters as each worker's result and the digit model asked
/// about the pieces of a whole batch of pictures at once.
extension NumberReader {
    /// Reads the number in every input of `inputs` and calls `each` with its
    /// result, in input order, on the calling thread: the reading (without
    /// characters when there is no digit) or the input's own error (one bad
    /// input costs only its own result).
    ///
    /// Each input is decoded and cut into characters, and its runs of
    /// touching digits read by the line model, on one of `options.workers`
    /// threads. With a single worker, the calling thread then asks the
    /// digit model about the candidate pieces of up to `options.batchSize`
    /// pictures at once, as `classify` does with whole pictures, while the
    /// worker cuts the next ones: two threads at work instead of one. With
    /// several workers each finishes its own pictures, in parallel, since the
    /// calling thread would then be the one all of them wait for (measured
    /// in BENCHMARKS.md, "read"); so does a worker with a picture of more
    /// than `piecesPerPictureInBatch` pieces (noise, say), so that what waits
    /// in memory stays small. The models are safe to share; call
    /// `TorchRuntime.setThreadCount(1)` first, as the CLI does, so that the
    /// forward passes do not each spread over every core. At most
    /// `options.maxInFlight` inputs are held at once, so memory stays flat on
    /// any number of inputs. With `options.batchSize` 1 each result is handed
    /// over as soon as it is next; a larger batch waits for its pictures
    /// only while the sequence keeps them coming (see `BatchOptions.flushDelay`).
    /// The sequence is iterated from the worker threads, one `next()` at a time.
    ///
    /// With `keepingImages`, each result also holds its decoded picture
    /// (memory for `maxInFlight` pictures at most).
    ///
    /// `afterEachBatch` is called once the results of a batch have all gone
    /// to `each`: the moment to write out what `each` buffered, so that
    /// whatever ends the process later costs no more than the batch under way.
    ///
    /// A batch whose forward pass fails is forwarded again picture by
    /// picture; a picture whose own forward pass fails (a `DigitError` of
    /// either model) ends the run, and so does an error thrown by `each`;
    /// either is rethrown, and the results delivered before it stand. The
    /// statistics count the calling thread's forward passes (the digit
    /// model's), not the workers'.
    @discardableResult
    public func read<Inputs: Sequence & Sendable>(_ inputs: Inputs, length: Int? = nil, options: BatchOptions = BatchOptions(),
                                                  keepingImages: Bool = false, afterEachBatch: () throws -> Void = {},
                                                  each: (NumberReadingResult) throws -> Void) throws -> BatchStatistics
    where Inputs.Element == ClassificationInput {
        try Self.check(length: length)
        let leavesPieces = options.workers == 1
        let run = BatchRun<PreparedReading>(inputs: AnyIterator(inputs.makeIterator()), options: options) { input in
            prepareReading(input, length: length, keepingImage: keepingImages, leavingPieces: leavesPieces)
        }
        return try run.runForwarding(tensors: { prepared in
            if case .pending(let pending, _) = prepared { return pending.tensors }
            return []
        }, forward: { try classify($0) }, passes: { ($0 + Self.batchSize - 1) / Self.batchSize }, deliver: { position, slot, predictions in
            let outcome: NumberReadingResult.Outcome, image: GrayImage?
            switch slot.prepared {
            case .pending(let pending, let kept): (outcome, image) = (.read(pending.finish(predictions)), kept)
            case .read(let reading, let kept): (outcome, image) = (.read(reading), kept)
            case .failed(let error): (outcome, image) = (.failed(error), nil)
            case .modelFailed(let error): throw error
            }
            try each(NumberReadingResult(position: position, origin: slot.origin, outcome: outcome, image: image))
        }, afterEachBatch: afterEachBatch)
    }

    /// The most candidate pieces a picture may leave for the calling thread;
    /// a picture with more is read whole on its worker. Bounds what pictures
    /// waiting for their batch hold (a piece is 3 KiB) whatever they show.
    static let piecesPerPictureInBatch = 64

    /// Decodes and cuts one input and reads its runs, on a worker thread;
    /// leaves its pieces to the calling thread only with `leavingPieces`
    /// and when they are few, and reads it in full here otherwise.
    @Sendable
    func prepareReading(_ input: ClassificationInput, length: Int?, keepingImage: Bool, leavingPieces: Bool) -> PreparedReading {
        let image: GrayImage
        do throws(DigitError) {
            image = try input.decoded(with: decoder)
        } catch {
            return .failed(error)
        }
        let kept = keepingImage ? image : nil
        // The length was checked before the run: what is thrown now is a model's.
        do throws(DigitError) {
            guard let pending = try pending(image, length: length) else { return .read(.noDigit, image: kept) }
            if !leavingPieces || pending.pieceCount > Self.piecesPerPictureInBatch {
                return .read(try finish(pending), image: kept)
            }
            return .pending(pending, image: kept)
        } catch {
            return .modelFailed(error)
        }
    }
}

/// What a worker made of one input for a batch reading.
enum PreparedReading: Sendable {
    /// Cut, its runs read: waiting for the digit model's answers about its pieces.
    case pending(PendingReading, image: GrayImage?)
    /// Read in full on the worker (no digit, or too many pieces to wait).
    case read(NumberReading, image: GrayImage?)
    /// The input could not be read or decoded: its own result.
    case failed(DigitError)
    /// A model failed: the run stops.
    case modelFailed(DigitError)
}
