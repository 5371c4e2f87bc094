internal import CDigitKitShims
internal import TorchBridgeLoader

/// A loaded TorchScript digit model: owns the TorchBridge handle and frees
/// it in `deinit`. Safe to share between threads: every forward runs under
/// inference mode and does not change the module.
public final class DigitModel: @unchecked Sendable {
    private let bridge: UnsafePointer<DigitsTorchBridge>
    private let handle: OpaquePointer
    /// The file the model was loaded from.
    public let path: String

    /// Loads and checks the model (TBModuleInitWithFileAtPath): the file must
    /// be TorchScript this libtorch can read, and map a [1, 1, 28, 28] tensor
    /// to a float [1, 10] tensor, or [1, 11] with a "not a digit" class
    /// last. Errors carry `path` as their subject. The
    /// first model loaded in a process loads libtorch (or throws
    /// `runtimeUnavailable` if the bridge library cannot be found or opened).
    public init(path: String) throws(DigitError) {
        (bridge, handle) = try ModelFile.load(path) { $0.pointee.moduleInitWithFileAtPath(path, $1, $2) }
        self.path = path
    }

    deinit {
        bridge.pointee.moduleFree(handle)
    }

    /// The scores the model gives each image: 10 (the digits), or 11 with
    /// "not a digit" last (TBModuleClassCount).
    public var classCount: Int { Int(bridge.pointee.moduleClassCount(handle)) }

    /// The `classCount` log-probabilities of one image (TBModulePredictImage).
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
        let classes = classCount
        var output = [Float](repeating: 0, count: batch.count * classes)
        let outcome = input.withUnsafeBufferPointer { pixels in
            output.withUnsafeMutableBufferPointer { scores in
                Result { () throws(DigitError) in
                    try checkBridge(bridge) {
                        bridge.pointee.modulePredictImages(handle, pixels.baseAddress!, batch.count, scores.baseAddress!, $0)
                    }
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

/// Process-wide settings of the libtorch runtime. Each of them opens the
/// bridge (loading libtorch) if no model has yet; `torchVersion` does not.
public enum TorchRuntime {
    /// Threads libtorch uses inside one operator (TBThreadCount); 1 if the
    /// bridge cannot be opened.
    public static var threadCount: Int {
        guard let bridge = try? TorchBridgeFunctions.open() else { return 1 }
        return Int(bridge.pointee.threadCount())
    }

    /// Sets the threads libtorch uses inside one operator for the whole process
    /// (TBSetThreadCount, which calls `at::set_num_threads`, and sizes OpenBLAS's
    /// pool to match when libtorch uses it). Throws `invalidArgument` unless
    /// `count` is 1-1024, `runtimeUnavailable` if the bridge cannot be opened.
    public static func setThreadCount(_ count: Int) throws(DigitError) {
        guard count >= 1, count <= 1024 else {
            throw DigitError(.invalidArgument, "thread count must be between 1 and 1024, got \(count)")
        }
        let bridge = try TorchBridgeFunctions.open()
        try checkBridge(bridge) { bridge.pointee.setThreadCount(Int32(count), $0) }
    }

    /// Makes malloc keep freed memory (up to 256 MiB) for the next forward
    /// pass instead of returning it to the system after each one, and caps
    /// malloc at one arena per CPU, each reserving 64 MiB of address space,
    /// unless MALLOC_ARENA_MAX is set (CDigitKit_retainFreedMemory, which
    /// calls glibc's mallopt; the policy of the bridge's
    /// TBRetainFreedMemory). Process-wide and opt-in: call it
    /// once from an executable that classifies many images, before it starts
    /// threads; it lifts batch-1 throughput on 2 threads about 1.5x here
    /// (BENCHMARKS.md). It does not load libtorch. Returns false where the C
    /// library has no such setting or refuses it (as AddressSanitizer's
    /// mallopt does).
    @discardableResult
    public static func retainFreedMemory() -> Bool {
        CDigitKit_retainFreedMemory() == 1
    }

    /// The libtorch version the bridge was built against, such as "1.13.1"
    /// (TBTorchVersion, or read from libDigitsTorchBridge.so without loading
    /// libtorch: DigitsTorchBridgeTorchVersion); nil when no bridge library
    /// is found.
    public static var torchVersion: String? { TorchBridgeFunctions.torchVersion }
}
