/// Classifying many inputs: the one orchestration every command builds on.
extension DigitClassifier {
    /// Classifies every input of `inputs` and calls `each` with its result,
    /// in input order, on the calling thread: the model's prediction, "no
    /// digit", or the input's own error (one bad input costs only its own
    /// result), with the tensor the model was given.
    ///
    /// Inputs are decoded and preprocessed on `options.workers` threads while
    /// the calling thread runs the model on `options.batchSize` of them at a
    /// time; at most `options.maxInFlight` are held at once, so memory stays
    /// flat on any number of inputs. The sequence is iterated from the worker
    /// threads, one `next()` at a time, and may block (reading a pipe); hence
    /// `Sendable`: a lazy sequence whose closure is isolated to an actor
    /// (top-level code is the main actor's) cannot be run there.
    ///
    /// A batch whose forward pass fails is forwarded again picture by
    /// picture; a picture whose own forward pass fails (a `DigitError` of
    /// the model) ends the run, and so does an error thrown by `each`;
    /// either is rethrown, and the results delivered before it stand.
    @discardableResult
    public func classify<Inputs: Sequence & Sendable>(_ inputs: Inputs, options: BatchOptions = BatchOptions(),
                                                      each: (ClassificationResult) throws -> Void) throws -> BatchStatistics
    where Inputs.Element == ClassificationInput {
        try Self.classify(inputs, loadingModel: { model }, decoder: decoder, preprocessor: preprocessor, options: options, each: each)
    }

    /// Classifies every input of `inputs` and returns the results in input order.
    public func classify<Inputs: Sequence & Sendable>(_ inputs: Inputs, options: BatchOptions = BatchOptions()) throws -> [ClassificationResult]
    where Inputs.Element == ClassificationInput {
        var results: [ClassificationResult] = []
        try classify(inputs, options: options) { results.append($0) }
        return results
    }

    /// `classify(_:options:each:)` with a model that is still to be loaded:
    /// the workers start decoding and preprocessing the inputs at once, while
    /// `loadModel` runs on the calling thread. Loading libtorch and a model
    /// takes about half a second, the time to preprocess hundreds of
    /// pictures; a command that classifies many files loads it this way
    /// (with a `maxInFlight` large enough to hold what the workers make
    /// meanwhile). Nothing is delivered before `loadModel` returns; an error
    /// from it stops the workers and is rethrown, with no result delivered.
    ///
    /// `afterEachBatch` is called once the results of a batch have all gone
    /// to `each`: the moment to write out what `each` buffered, so that
    /// whatever ends the process later (a picture that crashes a decoder)
    /// costs no more than the batch under way.
    @discardableResult
    public static func classify<Inputs: Sequence & Sendable>(_ inputs: Inputs, loadingModel loadModel: () throws -> DigitModel,
                                                             decoder: ImageDecoder = .forClassification,
                                                             preprocessor: Preprocessor = Preprocessor(),
                                                             options: BatchOptions = BatchOptions(),
                                                             afterEachBatch: () throws -> Void = {},
                                                             each: (ClassificationResult) throws -> Void) throws -> BatchStatistics
    where Inputs.Element == ClassificationInput {
        let run = BatchRun(inputs: AnyIterator(inputs.makeIterator()), options: options) { input in
            prepare(input, decoder: decoder, preprocessor: preprocessor)
        }
        var model: DigitModel?
        return try run.run(whileStarting: { model = try loadModel() },
                           forward: { tensors in try model!.predict(tensors) },  // loaded before any batch
                           deliver: each, afterEachBatch: afterEachBatch)
    }

    /// Decodes `input` with `decoder` and preprocesses it with `preprocessor`, on a worker thread.
    static func prepare(_ input: ClassificationInput, decoder: ImageDecoder, preprocessor: Preprocessor) -> PreparedInput {
        do throws(DigitError) {
            let stages = try preprocessor.stages(for: input.decoded(with: decoder))
            return stages.tensor.map { .tensor($0, warnings: stages.warnings, secondLook: stages.secondLook) } ?? .noDigit
        } catch {
            return .failed(error)
        }
    }
}
