internal import TorchBridge
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// A loaded TorchScript digit model: owns the TorchBridge handle and frees
/// it in `deinit`. Safe to share between threads: every forward runs under
/// inference mode and does not change the module.
public final class DigitModel: @unchecked Sendable {
    private let handle: OpaquePointer
    /// The file the model was loaded from.
    public let path: String

    /// Loads and checks the model (TBModuleInitWithFileAtPath): the file must
    /// be TorchScript this libtorch can read, and map a [1, 1, 28, 28] tensor
    /// to a float [1, 10] tensor. Errors carry `path` as their subject.
    public init(path: String) throws(DigitError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw DigitError(.modelNotFound, "model file not found", subject: path)
        }
        guard (info.st_mode & S_IFMT) != S_IFDIR else {
            throw DigitError(.modelLoadFailed, "is a directory, not a TorchScript model file", subject: path)
        }
        guard info.st_size > 0 else {
            throw DigitError(.modelLoadFailed, "empty file, not a TorchScript model; \(ModelLoadDiagnosis.export)", subject: path)
        }
        var module: OpaquePointer? = nil
        do throws(DigitError) {
            try checkBridge { TBModuleInitWithFileAtPath(path, &module, $0) }
        } catch {
            let message = error.code == .modelLoadFailed ? ModelLoadDiagnosis.message(for: error.message) : error.message
            throw DigitError(error.code, message, subject: path)
        }
        self.handle = module!
        self.path = path
    }

    deinit {
        TBModuleFree(handle)
    }

    /// The 10 log-probabilities of one image (TBModulePredictImage).
    public func logProbabilities(for tensor: DigitTensor) throws(DigitError) -> [Float] {
        try logProbabilities(for: [tensor])[0]
    }

    /// The log-probabilities of each image, computed in one forward pass
    /// (TBModulePredictImages). An empty batch gives an empty result.
    public func logProbabilities(for batch: [DigitTensor]) throws(DigitError) -> [[Float]] {
        guard !batch.isEmpty else { return [] }
        var input = [Float]()
        input.reserveCapacity(batch.count * DigitTensor.count)
        for tensor in batch { input.append(contentsOf: tensor.values) }
        let classes = Int(TB_CLASS_COUNT)
        var output = [Float](repeating: 0, count: batch.count * classes)
        let outcome = input.withUnsafeBufferPointer { pixels in
            output.withUnsafeMutableBufferPointer { scores in
                Result { () throws(DigitError) in
                    try checkBridge { TBModulePredictImages(handle, pixels.baseAddress!, batch.count, scores.baseAddress!, $0) }
                }
            }
        }
        try outcome.get()
        return (0..<batch.count).map { Array(output[($0 * classes)..<(($0 + 1) * classes)]) }
    }

    /// The prediction for one image.
    public func predict(_ tensor: DigitTensor) throws(DigitError) -> Prediction {
        Prediction(logProbabilities: try logProbabilities(for: tensor))
    }

    /// Predictions for a batch, in order, from one forward pass.
    public func predict(_ batch: [DigitTensor]) throws(DigitError) -> [Prediction] {
        try logProbabilities(for: batch).map(Prediction.init(logProbabilities:))
    }
}

/// Process-wide settings of the libtorch runtime.
public enum TorchRuntime {
    /// Threads libtorch uses inside one operator (TBThreadCount / TBSetThreadCount).
    public static var threadCount: Int { Int(TBThreadCount()) }

    /// Sets the threads libtorch uses inside one operator for the whole process
    /// (TBSetThreadCount, which calls `at::set_num_threads`, and sizes OpenBLAS's
    /// pool to match when libtorch uses it). Throws `invalidArgument` unless
    /// `count` is 1-1024.
    public static func setThreadCount(_ count: Int) throws(DigitError) {
        guard count >= 1, count <= 1024 else {
            throw DigitError(.invalidArgument, "thread count must be between 1 and 1024, got \(count)")
        }
        try checkBridge { TBSetThreadCount(Int32(count), $0) }
    }

    /// Makes malloc keep freed memory (up to 256 MiB) for the next forward
    /// pass instead of returning it to the system after each one
    /// (TBRetainFreedMemory, which calls glibc's mallopt). Process-wide and
    /// opt-in: call it once from an executable that classifies many images;
    /// it lifts batch-1 throughput on 2 threads about 1.5x here
    /// (BENCHMARKS.md). Returns false where the C library has no such setting
    /// or refuses it (as AddressSanitizer's mallopt does).
    @discardableResult
    public static func retainFreedMemory() -> Bool { TBRetainFreedMemory() == 1 }

    /// The libtorch version the bridge was built against (TBTorchVersion).
    public static var torchVersion: String { String(cString: TBTorchVersion()) }
}
