import DigitKit
import Foundation
import Synchronization
import Testing
import TestSupport

/// The batch run every command builds on: order, determinism, bounded
/// work in flight, per-input errors, and stopping early.
@Suite("Batch classification")
struct BatchClassificationTests {
    static let model = Result { try DigitModel(path: Fixtures.shippedModel) }

    /// Every fourth real-world fixture (canvases from 28 to several hundred pixels,
    /// so workers finish out of order; each kind is there), with bad inputs of
    /// every source kind between them. A quarter of them, because the
    /// sanitizer passes run these tests several times over.
    static func mixedInputs() throws -> [ClassificationInput] {
        let pictures = stride(from: 0, to: RealWorldFixture.all.count, by: 4).map { RealWorldFixture.all[$0] }
        var inputs = pictures.map { ClassificationInput.file($0.path) }
        inputs.insert(.file("/no/such/file.png"), at: 3)
        inputs.insert(.bytes(Array("not an image".utf8), name: "garbage"), at: 30)
        inputs.insert(ClassificationInput(source: .failure(DigitError(.unreadableFile, "cannot list folder: permission denied")),
                                          origin: InputOrigin(name: "locked")), at: 50)
        inputs.insert(.image(try PNGDecoder().decode(fileAtPath: pictures[7].path), name: "decoded"), at: 65)
        return inputs
    }

    /// The model's float results can differ in their last bits with the
    /// make-up of a batch and libtorch's thread split (other tests run the
    /// model at the same time); decisions and tensors cannot.
    static func sameAnswer(_ a: Prediction?, _ b: Prediction?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return a.digit == b.digit && zip(a.probabilities, b.probabilities).allSatisfy { abs($0 - $1) < 1e-5 }
    }

    @Test("results come in input order, the same with 1 worker or 4 and a small window")
    func orderAndDeterminism() throws {
        let classifier = DigitClassifier(model: try Self.model.get())
        let inputs = try Self.mixedInputs()
        let one = try classifier.classify(inputs, options: BatchOptions(batchSize: 16, workers: 1))
        let four = try classifier.classify(inputs, options: BatchOptions(batchSize: 16, workers: 4, maxInFlight: 20))
        #expect(one.map(\.position) == Array(inputs.indices))
        #expect(one.map(\.origin) == inputs.map(\.origin))
        #expect(four.map(\.origin) == inputs.map(\.origin))
        for (a, b) in zip(one, four) {
            #expect(Self.sameAnswer(a.prediction, b.prediction), "\(a.origin.label)")
            #expect(a.tensor == b.tensor, "\(a.origin.label)")
            #expect(a.error == b.error, "\(a.origin.label)")
        }
        #expect(one[3].error == DigitError(.fileNotFound, "no such file", subject: "/no/such/file.png"))
        #expect(one[30].error == DigitError(.invalidImage, "not an image digits can read (PNG, JPEG or PNM)", subject: "garbage"))
        #expect(one[50].error?.description == "locked: cannot list folder: permission denied")
        #expect(one[65].prediction != nil && Self.sameAnswer(one[65].prediction, one[8].prediction))
    }

    @Test("each result carries the tensor the model was given, and its prediction")
    func tensorsAndPredictions() throws {
        let model = try Self.model.get()
        let classifier = DigitClassifier(model: model)
        let fixtures = Array(RealWorldFixture.all.prefix(40))
        let results = try classifier.classify(fixtures.map { ClassificationInput.file($0.path) })
        for (fixture, result) in zip(fixtures, results) {
            let expected = try classifier.tensor(forFileAtPath: fixture.path)
            #expect(result.tensor == expected, "\(fixture.file)")
            if let expected, let prediction = result.prediction {
                let alone = try model.predict(expected)
                #expect(Self.sameAnswer(prediction, alone), "\(fixture.file)")
            } else {
                #expect(expected == nil && result.prediction == nil && result.error == nil, "\(fixture.file)")
            }
        }
    }

    /// A sequence that counts how many elements have been taken from it.
    final class CountingInputs: Sequence, @unchecked Sendable {
        let base: [ClassificationInput]
        let pulled = Mutex(0)
        let delay: (Int) -> Double
        init(_ base: [ClassificationInput], delay: @escaping (Int) -> Double = { _ in 0 }) {
            self.base = base
            self.delay = delay
        }
        func makeIterator() -> AnyIterator<ClassificationInput> {
            var index = 0
            return AnyIterator {
                guard index < self.base.count else { return nil }
                Thread.sleep(forTimeInterval: self.delay(index))
                defer { index += 1 }
                self.pulled.withLock { $0 += 1 }
                return self.base[index]
            }
        }
    }

    /// A flush delay no test reaches (as NumberReaderTests' 60 s): a worker preempted inside `next()` is
    /// a stall by the run's rule, and the default 20 ms would send a partial batch, one pass more.
    /// `stalledSourceFlushesEarly` tests the flush.
    static let neverFlush = 60.0

    @Test("never more than maxInFlight inputs are taken ahead of the results delivered, in full batches")
    func boundedInFlight() throws {
        let classifier = DigitClassifier(model: try Self.model.get())
        let good = ClassificationInput.file(Fixtures.path("mnist-sample/0000-7.png"))
        let inputs = CountingInputs(Array(repeating: good, count: 600))
        let options = BatchOptions(batchSize: 8, workers: 3, maxInFlight: 24, flushDelay: Self.neverFlush)
        var delivered = 0, mostAhead = 0
        let statistics = try classifier.classify(inputs, options: options) { result in
            delivered += 1
            mostAhead = max(mostAhead, inputs.pulled.withLock { $0 } - delivered)
            #expect(result.prediction?.digit == 7)
        }
        #expect(delivered == 600 && statistics.inputs == 600)
        #expect(mostAhead <= 24)
        #expect(statistics.forwardPasses == 75)
    }

    @Test("a batch whose forward pass fails is forwarded picture by picture: every picture answered as in batches of one")
    func failedBatchForwardedAlone() throws {
        // fails-on-batch.pt answers one picture at a time and fails on more,
        // as a large batch does when its memory cannot be had.
        let classifier = DigitClassifier(model: try DigitModel(path: Fixtures.model("fails-on-batch")))
        let inputs = MNISTSample.all.prefix(20).map { ClassificationInput.file($0.path) }
        let alone = try classifier.classify(inputs, options: BatchOptions(batchSize: 1, workers: 2))
        var batched: [ClassificationResult] = []
        let statistics = try classifier.classify(inputs, options: BatchOptions(batchSize: 8, workers: 2, flushDelay: Self.neverFlush)) { batched.append($0) }
        #expect(batched.map(\.origin) == inputs.map(\.origin))
        for (a, b) in zip(alone, batched) {
            #expect(a.prediction != nil && Self.sameAnswer(a.prediction, b.prediction), "\(a.origin.label)")
        }
        // Batches of 8, 8 and 4 fail; then each picture is forwarded alone.
        #expect(statistics.forwardPasses == 3 + 20)
    }

    struct Stop: Error {}

    @Test("an error thrown for a result stops the run and is rethrown; the rest is never read")
    func consumerErrorStops() throws {
        let classifier = DigitClassifier(model: try Self.model.get())
        let inputs = CountingInputs(Array(repeating: .file(Fixtures.path("mnist-sample/0001-2.png")), count: 5000))
        var seen = 0
        #expect(throws: Stop.self) {
            try classifier.classify(inputs, options: BatchOptions(batchSize: 4, workers: 2, maxInFlight: 16)) { _ in
                seen += 1
                if seen == 10 { throw Stop() }
            }
        }
        #expect(seen == 10)
        #expect(inputs.pulled.withLock { $0 } <= 10 + 16)
    }

    @Test("a source that stalls gets its results before the next input arrives")
    func stalledSourceFlushesEarly() throws {
        let classifier = DigitClassifier(model: try Self.model.get())
        let good = ClassificationInput.file(Fixtures.path("mnist-sample/0002-1.png"))
        // The 4th input arrives only after 1.5 s (flushDelay is 20 ms): the first three must not wait for it.
        let inputs = CountingInputs(Array(repeating: good, count: 5), delay: { $0 == 3 ? 1.5 : 0 })
        var pulledWhenDelivered: [Int] = []
        try classifier.classify(inputs, options: BatchOptions(batchSize: 64, workers: 2)) { _ in
            pulledWhenDelivered.append(inputs.pulled.withLock { $0 })
        }
        #expect(pulledWhenDelivered.count == 5)
        #expect(pulledWhenDelivered.prefix(3).allSatisfy { $0 == 3 }, "\(pulledWhenDelivered)")
    }

    @Test("a flush delay set out of range after the options were made is brought within range: no trap, every result",
          arguments: [Double.infinity, .nan, -1])
    func flushDelayOutOfRange(flushDelay: Double) throws {
        let classifier = DigitClassifier(model: try Self.model.get())
        let inputs = MNISTSample.all.prefix(12).map { ClassificationInput.file($0.path) }
        var options = BatchOptions(batchSize: 4, workers: 2)
        options.flushDelay = flushDelay
        #expect(options.flushDelay == (flushDelay == .infinity ? BatchOptions.longestFlushDelay : 0))
        // The sixth input comes 0.3 s late, with a partial batch ready: the delay is waited on.
        let slow = CountingInputs(inputs, delay: { $0 == 5 ? 0.3 : 0 })
        var delivered: [ClassificationResult] = []
        let statistics = try classifier.classify(slow, options: options) { delivered.append($0) }
        #expect(delivered.map(\.origin) == inputs.map(\.origin))
        #expect(delivered.allSatisfy { $0.prediction != nil })
        // Infinity is a day: the late input is waited for and the batches are full. NaN and -1 are no
        // delay: the partial batch goes ahead.
        #expect(flushDelay == .infinity ? statistics.forwardPasses == 3 : statistics.forwardPasses > 3,
                "\(statistics.forwardPasses) passes")
    }

    @Test("no batch, no worker and no room set after the options were made: brought within range as init brings them")
    func sizesOutOfRange() throws {
        let classifier = DigitClassifier(model: try Self.model.get())
        let inputs = MNISTSample.all.prefix(6).map { ClassificationInput.file($0.path) }
        var options = BatchOptions()
        (options.batchSize, options.workers, options.maxInFlight) = (0, 0, 0)
        #expect((options.batchSize, options.workers, options.maxInFlight) == (1, 1, 1))
        var delivered: [ClassificationResult] = []
        let statistics = try classifier.classify(inputs, options: options) { delivered.append($0) }
        #expect(delivered.map(\.origin) == inputs.map(\.origin))
        #expect(delivered.allSatisfy { $0.prediction != nil })
        // Batches of one, as `init` makes a batch of 0.
        #expect(statistics.forwardPasses == inputs.count)
    }

    @Test("an empty sequence gives no results")
    func emptySequence() throws {
        let classifier = DigitClassifier(model: try Self.model.get())
        let statistics = try classifier.classify([ClassificationInput]()) { _ in Issue.record("no result expected") }
        #expect(statistics.inputs == 0 && statistics.forwardPasses == 0)
    }

    @Test("the workers prepare inputs while the model loads, with the same results; a model that fails to load delivers nothing")
    func modelLoadedWhileWorkersPrepare() throws {
        let model = try Self.model.get()
        let inputs = try Self.mixedInputs()
        let counted = CountingInputs(inputs)
        var takenWhileLoading = 0
        var overlapped: [ClassificationResult] = []
        try DigitClassifier.classify(counted, loadingModel: {
            // Waits for the workers to take 20 inputs: they run before the
            // model exists, or this never ends early. At most 60 s: under
            // ThreadSanitizer, with the other suites running, they once took
            // only 13 in 10 s; a plain run takes them in milliseconds.
            let deadline = Date().addingTimeInterval(60)
            while counted.pulled.withLock({ $0 }) < 20 && Date() < deadline { usleep(1_000) }
            takenWhileLoading = counted.pulled.withLock { $0 }
            #expect(overlapped.isEmpty, "nothing is delivered before the model has loaded")
            return model
        }, options: BatchOptions(batchSize: 16, workers: 2, maxInFlight: 64)) { overlapped.append($0) }
        #expect(takenWhileLoading >= 20)
        let loadedFirst = try DigitClassifier(model: model).classify(inputs, options: BatchOptions(batchSize: 16, workers: 2))
        #expect(overlapped.map(\.origin) == inputs.map(\.origin))
        for (a, b) in zip(overlapped, loadedFirst) {
            #expect(Self.sameAnswer(a.prediction, b.prediction) && a.tensor == b.tensor && a.error == b.error, "\(a.origin.label)")
        }

        var delivered = 0
        let failure = DigitError(.modelLoadFailed, "broken", subject: "model.pt")
        #expect(throws: failure) {
            try DigitClassifier.classify(inputs, loadingModel: { throw failure }) { _ in delivered += 1 }
        }
        #expect(delivered == 0)
    }
}
