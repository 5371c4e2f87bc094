internal import TorchBridgeLoader

/// A loaded TorchScript line model (Models/digit-line.pt): reads a run of
/// digits that touch or overlap in one pass, without cutting it, as CTC
/// scores per frame (LineDecoding decodes them). Owns the TorchBridge handle
/// and frees it in `deinit`; safe to share between threads, as DigitModel.
public final class LineModel: @unchecked Sendable {
    private let bridge: UnsafePointer<DigitsTorchBridge>
    private let handle: OpaquePointer
    /// The file the model was loaded from.
    public let path: String

    /// Classes per frame: CTC's blank (class 0), then digits 0-9
    /// (TorchBridge's TB_LINE_CLASS_COUNT).
    public static let classCount = Int(TB_LINE_CLASS_COUNT)

    /// Loads and checks the model (TBLineModuleInitWithFileAtPath): the file
    /// must be TorchScript this libtorch can read that maps a [1, 1, 28, 32]
    /// tensor to a float [1, T, 11] tensor. Errors carry `path` as their
    /// subject; a digit model given here fails with `notADigitModel`.
    public init(path: String) throws(DigitError) {
        (bridge, handle) = try ModelFile.load(path) { $0.pointee.lineModuleInitWithFileAtPath(path, $1, $2) }
        self.path = path
    }

    deinit {
        bridge.pointee.moduleFree(handle)
    }

    /// The log-probabilities of each frame of `line`, frame by frame, each
    /// `classCount` long (TBLineModuleRead).
    public func logProbabilities(for line: LineTensor) throws(DigitError) -> [[Float]] {
        let classes = Self.classCount
        var output = [Float](repeating: 0, count: line.width * classes)
        var frames = 0
        let outcome = line.values.withUnsafeBufferPointer { pixels in
            output.withUnsafeMutableBufferPointer { scores in
                Result { () throws(DigitError) in
                    try checkBridge(bridge) {
                        bridge.pointee.lineModuleRead(handle, pixels.baseAddress!, line.width, scores.baseAddress!,
                                                      scores.count, &frames, $0)
                    }
                }
            }
        }
        do { try outcome.get() } catch { throw error.subject == nil ? error.about(path) : error }
        return (0..<frames).map { Array(output[($0 * classes)..<(($0 + 1) * classes)]) }
    }
}
