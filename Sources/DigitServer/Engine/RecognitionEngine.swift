import DigitKit
import NIOPosix

/// The work behind the routes: pictures decoded and preprocessed on the
/// worker threads, classified in batches gathered across requests, numbers
/// read, stream frames analysed. Nothing here runs on the event loop.
final class RecognitionEngine: Sendable {
    let model: DigitModel
    let decoder: ImageDecoder
    /// The photo pipeline (with the ink locator, if any).
    let preprocessor: Preprocessor
    let reader: NumberReader
    let batcher: InferenceBatcher
    let admission: AdmissionLimit
    let metrics: ServerMetrics
    private let workers: NIOThreadPool

    init(model: DigitModel, preprocessor: Preprocessor, lineModel: LineModel?, configuration: ServerConfiguration, metrics: ServerMetrics) {
        self.model = model
        self.decoder = .forClassification
        self.preprocessor = preprocessor
        self.reader = NumberReader(model: model, lineModel: lineModel, preprocessor: preprocessor)
        self.metrics = metrics
        let admission = AdmissionLimit(pictures: configuration.maxQueue, bytes: configuration.maxBodyBytesInFlight)
        self.admission = admission
        self.batcher = InferenceBatcher(model: model, maxBatch: configuration.maxBatch, maxDelay: configuration.maxDelay,
                                        inProgress: { admission.inProgress }) { size, seconds in
            metrics.batchRun(size: size, seconds: seconds)
        }
        self.workers = NIOThreadPool(numberOfThreads: configuration.workers)
        workers.start()
    }

    /// Runs a few forward passes of the model and the ink locator (on a
    /// worker: they block) so that TorchScript's first, slow calls are
    /// behind us before /readyz says ready.
    func warmUp() async throws {
        for _ in 0..<3 { _ = try await batcher.predict(.blank) }
        if let locator = preprocessor.locator {
            try await onWorker { try locator.warmUp() }
        }
    }

    /// The classification of one encoded picture and the 28x28 the model saw.
    func classify(_ bytes: [UInt8], name: String, options: ClassifyOptions) async throws -> (Classification, DigitTensor?) {
        var preprocessor = self.preprocessor
        preprocessor.inversion = options.inversion
        if options.raw {
            preprocessor.mode = .raw
            preprocessor.locator = nil
        }
        let prepared = try await onWorker { [decoder, preprocessor] () throws -> (DigitTensor?, [PreprocessingWarning], SecondLook?) in
            let image = try Self.decode(bytes, name: name, with: decoder)
            let stages = try Self.serverFault { () throws(DigitError) in try preprocessor.stages(for: image) }
            return (stages.tensor, stages.warnings, stages.secondLook)
        }
        let (tensor, warnings, look) = prepared
        guard let tensor else {
            return (Classification(prediction: nil, warnings: warnings, rule: options.uncertainty), nil)
        }
        let answer: SecondLook.Answer
        do {
            let first = try await batcher.predict(tensor)
            let second = try await look?.take(after: first) { again in try await batcher.predict(again) }
            answer = SecondLook.answer(first, for: tensor, warnings: warnings, second: second)
        } catch let error as DigitError { throw APIError.modelFailed(error) }
        return (Classification(prediction: answer.prediction, warnings: answer.warnings, rule: options.uncertainty), answer.tensor)
    }

    /// The number one encoded picture shows.
    func read(_ bytes: [UInt8], name: String, options: ReadOptions) async throws -> NumberReading {
        try await onWorker { [decoder, reader] in
            let image = try Self.decode(bytes, name: name, with: decoder)
            return try Self.serverFault { () throws(DigitError) in try reader.read(image, length: options.length) }
        }
    }

    /// One stream frame analysed by `recognizer`.
    func analyse(_ frame: VideoFrame, with recognizer: StreamRecognizer) async throws(DigitError) -> FrameAnalysis {
        do {
            return try await onWorker { try recognizer.analyse(frame) }
        } catch let error as DigitError {
            throw error
        } catch {
            throw DigitError(.inferenceFailed, "\(error)")
        }
    }

    /// Stops the forward thread (after what is queued) and the workers.
    func shutdown() async {
        batcher.stop()
        try? await workers.shutdownGracefully()
    }

    /// The picture in `bytes`; one that cannot be decoded is the client's 400.
    private static func decode(_ bytes: [UInt8], name: String, with decoder: ImageDecoder) throws(APIError) -> GrayImage {
        do { return try decoder.decode(bytes: bytes) } catch { throw .undecodablePicture(error, name: name) }
    }

    /// `work`'s result; its failure (the model's or the locator's) is the server's 500.
    private static func serverFault<T>(_ work: () throws(DigitError) -> T) throws(APIError) -> T {
        do { return try work() } catch { throw .modelFailed(error) }
    }

    private func onWorker<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await workers.runIfActive(work)
    }
}
