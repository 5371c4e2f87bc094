internal import TorchBridgeLoader

/// A loaded TorchScript ink locator (Models/locator.pt): gives, for each
/// pixel of a small grey picture, the probability that it is the ink of the
/// picture's subject (a digit or another character) rather than paper,
/// ruled lines, shadow, desk or frame. Owns the TorchBridge handle and frees
/// it in `deinit`; safe to share between threads, as DigitModel.
public final class InkLocator: @unchecked Sendable {
    private let bridge: UnsafePointer<DigitsTorchBridge>
    private let handle: OpaquePointer
    /// The file the model was loaded from.
    public let path: String
    /// Held around every forward pass of a locator that runs as it was saved
    /// (see `probabilities(for:)`).
    private static let oneAtATime = ConditionLock()
    /// Whether the bridge runs this locator optimized for inference
    /// (TBModuleIsOptimized): its convolutions then run on oneDNN, not OpenBLAS.
    private let runsOptimized: Bool

    /// The shortest and longest side of a picture the locator is given
    /// (TorchBridge's TB_LOCATOR_MIN_SIDE and TB_LOCATOR_MAX_SIDE); both
    /// sides must also be multiples of `sideMultiple`.
    public static let minimumSide = Int(TB_LOCATOR_MIN_SIDE), maximumSide = Int(TB_LOCATOR_MAX_SIDE)
    /// What both sides of a picture given to the locator are multiples of.
    public static let sideMultiple = 8

    /// Loads and checks the model (TBLocatorModuleInitWithFileAtPath): the
    /// file must be TorchScript this libtorch can read that maps a
    /// [1, 1, 64, 64] tensor to a float [1, 1, 64, 64] tensor. Errors carry
    /// `path` as their subject.
    public init(path: String) throws(DigitError) {
        (bridge, handle) = try ModelFile.load(path) { $0.pointee.locatorModuleInitWithFileAtPath(path, $1, $2) }
        self.path = path
        runsOptimized = bridge.pointee.moduleIsOptimized(handle) == 1
    }

    deinit {
        bridge.pointee.moduleFree(handle)
    }

    /// Runs a few forward passes on blank paper. TorchScript's profiling
    /// executor optimizes the graph during the first calls, which take tens
    /// of milliseconds each: a live stream warms up before its first frame,
    /// and a server before it says it is ready, so that the first picture
    /// with ink is not the one that waits.
    public func warmUp() throws(DigitError) {
        let side = LocatedInk.side
        let paper = Raster(width: side, height: side, values: Array(repeating: 255, count: side * side))
        for _ in 0..<3 { _ = try probabilities(for: paper) }
    }

    /// The ink probability of each pixel of `picture` (grey levels 0-255),
    /// row-major (TBLocatorModuleLocate). Its sides must lie within
    /// `minimumSide`...`maximumSide` and be multiples of `sideMultiple`.
    public func probabilities(for picture: Raster) throws(DigitError) -> Raster {
        let input = picture.values.map { Float($0 / 255) }
        var output = [Float](repeating: 0, count: input.count)
        func forward() -> Result<Void, DigitError> {
            input.withUnsafeBufferPointer { pixels in
                output.withUnsafeMutableBufferPointer { map in
                    Result { () throws(DigitError) in
                        try checkBridge(bridge) {
                            bridge.pointee.locatorModuleLocate(handle, pixels.baseAddress!, picture.width, picture.height,
                                                               map.baseAddress!, $0)
                        }
                    }
                }
            }
        }
        // Optimized (the shipped locator), the convolutions run on oneDNN and
        // the workers' forwards overlap. As saved, they call OpenBLAS, which
        // gives every thread that calls it at once a buffer of its own and,
        // under an address-space limit, retries a failed allocation for ever:
        // one such forward at a time in the process (docs/decisions.md, "One
        // locator forward at a time").
        let outcome = runsOptimized ? forward() : Self.oneAtATime.withLock(forward)
        do { try outcome.get() } catch { throw error.subject == nil ? error.about(path) : error }
        return Raster(width: picture.width, height: picture.height, values: output.map(Double.init))
    }
}
