#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// Runs a model over a labelled MNIST-format dataset in batches and scores it.
public struct Evaluator: Sendable {
    /// One wrong prediction.
    public struct Mistake: Equatable, Sendable {
        /// The image's index in the dataset.
        public let index: Int
        public let label: Int
        public let predicted: Int
        public let confidence: Double
    }

    public struct Report: Sendable {
        public var confusion = ConfusionMatrix()
        /// The most confident mistakes, most confident first.
        public var mistakes: [Mistake] = []
        /// Images the pipeline found no digit in (counted as wrong).
        public var noDigit: [Int] = []
        /// Seconds spent in forward passes.
        public var forwardSeconds = 0.0
        /// Seconds for the whole evaluation: tensors, forward passes, scoring.
        public var totalSeconds = 0.0

        /// Images evaluated, with or without a digit found.
        public var evaluated: Int { confusion.total + noDigit.count }
        /// Right predictions over all images evaluated (an image without a digit found is wrong).
        public var accuracy: Double { evaluated == 0 ? 0 : Double(confusion.correct) / Double(evaluated) }
        public var imagesPerSecond: Double { totalSeconds > 0 ? Double(evaluated) / totalSeconds : 0 }
        public var forwardImagesPerSecond: Double { forwardSeconds > 0 ? Double(evaluated) / forwardSeconds : 0 }
    }

    public let model: DigitModel
    public let preprocessor: Preprocessor
    public let batchSize: Int
    /// How many of the most confident mistakes to keep.
    public let keepMistakes: Int

    public init(model: DigitModel, preprocessor: Preprocessor = Preprocessor(mode: .raw), batchSize: Int = 256, keepMistakes: Int = 10) {
        precondition(batchSize >= 1)
        self.model = model
        self.preprocessor = preprocessor
        self.batchSize = batchSize
        self.keepMistakes = keepMistakes
    }

    /// Evaluates the first `limit` images (all when nil); `progress` is called
    /// after each batch with the number of images done.
    public func evaluate(_ dataset: MNISTDataset, limit: Int? = nil, progress: (Int) -> Void = { _ in }) throws(DigitError) -> Report {
        let count = min(limit ?? dataset.count, dataset.count)
        var report = Report()
        var mistakes: [Mistake] = []
        let started = Self.now()
        for start in stride(from: 0, to: count, by: batchSize) {
            let indices = start..<min(start + batchSize, count)
            let tensors = indices.map { preprocessor.tensor(for: dataset.image(at: $0)) }
            let present = tensors.compactMap { $0 }
            let forwardStarted = Self.now()
            var predictions = try model.predict(present).makeIterator()
            report.forwardSeconds += Self.now() - forwardStarted
            for (index, tensor) in zip(indices, tensors) {
                guard tensor != nil, let prediction = predictions.next() else {
                    report.noDigit.append(index)
                    continue
                }
                let label = Int(dataset.labels[index])
                report.confusion.add(truth: label, predicted: prediction.digit)
                if prediction.digit != label {
                    mistakes.append(Mistake(index: index, label: label, predicted: prediction.digit, confidence: prediction.confidence))
                }
            }
            progress(indices.upperBound)
        }
        report.totalSeconds = Self.now() - started
        report.mistakes = Array(mistakes.sorted { $0.confidence != $1.confidence ? $0.confidence > $1.confidence : $0.index < $1.index }
            .prefix(keepMistakes))
        return report
    }

    /// Monotonic seconds.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
