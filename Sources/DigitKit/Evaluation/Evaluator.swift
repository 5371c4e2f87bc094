/// Runs a model over a labelled MNIST-format dataset and scores it, through
/// the same batch run as every other command (`DigitClassifier.classify(_:options:each:)`).
public struct Evaluator: Sendable {
    /// One wrong prediction.
    public struct Mistake: Equatable, Sendable {
        /// The image's index in the dataset.
        public let index: Int
        /// The true digit, 0-9, from the labels file.
        public let label: Int
        /// The digit the model chose instead, 0-9.
        public let predicted: Int
        /// The probability (0-1) the model gave `predicted`.
        public let confidence: Double
        /// The tensor the model was given for it, for showing what it saw.
        public let tensor: DigitTensor
    }

    /// The result of `evaluate(_:limit:progress:)`: the confusion matrix, the
    /// mistakes worth showing, and timings.
    public struct Report: Sendable {
        /// True against predicted digit for the images in which a digit was found.
        public var confusion = ConfusionMatrix()
        /// The most confident mistakes, most confident first.
        public var mistakes: [Mistake] = []
        /// Images the pipeline found no digit in (counted as wrong).
        public var noDigit: [Int] = []
        /// Images the model answered "not a digit" (counted as wrong).
        public var notADigit: [Int] = []
        /// Seconds spent in forward passes.
        public var forwardSeconds = 0.0
        /// Seconds for the whole evaluation: tensors, forward passes, scoring.
        public var totalSeconds = 0.0

        /// Images evaluated, with or without a digit found.
        public var evaluated: Int { confusion.total + noDigit.count + notADigit.count }
        /// Right predictions over all images evaluated (an image without a digit found is wrong).
        public var accuracy: Double { evaluated == 0 ? 0 : Double(confusion.correct) / Double(evaluated) }
        /// Images evaluated per second of the whole evaluation; 0 when no time was measured.
        public var imagesPerSecond: Double { totalSeconds > 0 ? Double(evaluated) / totalSeconds : 0 }
        /// Images evaluated per second spent in forward passes alone; 0 when no time
        /// was measured.
        public var forwardImagesPerSecond: Double { forwardSeconds > 0 ? Double(evaluated) / forwardSeconds : 0 }
    }

    /// The TorchScript model under evaluation.
    public let model: DigitModel
    /// Turns each dataset image into the model's tensor; `.raw` by default, as
    /// MNIST images are already centred 28x28 digits.
    public let preprocessor: Preprocessor
    /// Images per forward pass; at least 1.
    public let batchSize: Int
    /// How many of the most confident mistakes to keep.
    public let keepMistakes: Int
    /// Threads that preprocess the images.
    public let workers: Int

    /// An evaluator of `model`; `batchSize` must be at least 1, which a
    /// precondition checks. Workers default to the available cores.
    public init(model: DigitModel, preprocessor: Preprocessor = Preprocessor(mode: .raw), batchSize: Int = 256, keepMistakes: Int = 10,
                workers: Int = AvailableCores.count) {
        precondition(batchSize >= 1)
        self.model = model
        self.preprocessor = preprocessor
        self.batchSize = batchSize
        self.keepMistakes = keepMistakes
        self.workers = workers
    }

    /// Evaluates the first `limit` images (all when nil); `progress` is called
    /// after each image with the number of images done.
    public func evaluate(_ dataset: MNISTDataset, limit: Int? = nil, progress: (Int) -> Void = { _ in }) throws(DigitError) -> Report {
        let count = min(limit ?? dataset.count, dataset.count)
        let inputs = InputSequence(count: count) { ClassificationInput.image(dataset.image(at: $0), name: "#\($0)") }
        let classifier = DigitClassifier(model: model, preprocessor: preprocessor)
        var report = Report()
        var mistakes = MostConfidentMistakes(keep: keepMistakes)
        do {
            let statistics = try classifier.classify(inputs, options: BatchOptions(batchSize: batchSize, workers: workers)) { result in
                let index = result.position
                guard let prediction = result.prediction, let tensor = result.tensor else {
                    if case .notADigit = result.outcome { report.notADigit.append(index) } else { report.noDigit.append(index) }
                    progress(index + 1)
                    return
                }
                let label = Int(dataset.labels[index])
                report.confusion.add(truth: label, predicted: prediction.digit)
                if prediction.digit != label {
                    mistakes.add(Mistake(index: index, label: label, predicted: prediction.digit, confidence: prediction.confidence, tensor: tensor))
                }
                progress(index + 1)
            }
            report.forwardSeconds = statistics.forwardSeconds
            report.totalSeconds = statistics.totalSeconds
        } catch {
            // Only the model can fail here: the closure above throws nothing.
            throw (error as? DigitError) ?? DigitError(.inferenceFailed, "\(error)")
        }
        report.mistakes = mistakes.sorted
        return report
    }
}

/// The `keep` most confident mistakes seen so far (ties: lower index first),
/// so that evaluating a large dataset keeps only those tensors.
struct MostConfidentMistakes {
    let keep: Int
    private(set) var kept: [Evaluator.Mistake] = []

    init(keep: Int) { self.keep = max(0, keep) }

    static func ranksBefore(_ a: Evaluator.Mistake, _ b: Evaluator.Mistake) -> Bool {
        a.confidence != b.confidence ? a.confidence > b.confidence : a.index < b.index
    }

    mutating func add(_ mistake: Evaluator.Mistake) {
        guard keep > 0 else { return }
        if kept.count == keep, let last = kept.last, !Self.ranksBefore(mistake, last) { return }
        let at = kept.firstIndex { Self.ranksBefore(mistake, $0) } ?? kept.count
        kept.insert(mistake, at: at)
        if kept.count > keep { kept.removeLast() }
    }

    var sorted: [Evaluator.Mistake] { kept }
}
