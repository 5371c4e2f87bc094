internal import TorchBridgeLoader

/// The model's input for one image: 28x28 float32 values, row-major,
/// normalized as torchvision's `ToTensor()` + `Normalize((0.1307,), (0.3081,))`
/// would: `(pixel / 255 - 0.1307) / 0.3081`, with ink bright on a dark background.
public struct DigitTensor: Equatable, Sendable {
    /// Width and height of the tensor in pixels: 28, as MNIST's images.
    /// TorchBridge's TB_IMAGE_SIDE itself, so the two cannot disagree.
    public static let side = Int(TB_IMAGE_SIDE)
    /// Values in one tensor: 28 x 28 = 784 (TB_IMAGE_FLOATS).
    public static let count = Int(TB_IMAGE_FLOATS)
    /// MNIST's mean pixel intensity in [0, 1], subtracted by the normalization.
    public static let mean: Float = 0.1307
    /// MNIST's standard deviation of pixel intensity in [0, 1], divided by
    /// after the mean is subtracted.
    public static let std: Float = 0.3081

    /// `count` normalized values.
    public let values: [Float]

    /// An empty field (intensity 0 everywhere), normalized: what a model is
    /// warmed up on before the first picture.
    public static let blank = DigitTensor(intensities: [Float](repeating: 0, count: count))

    /// Wraps values that are already normalized; throws `invalidArgument` unless
    /// there are exactly `count` (784) of them.
    public init(values: [Float]) throws {
        guard values.count == Self.count else {
            throw DigitError(.invalidArgument, "a digit tensor holds \(Self.count) values, got \(values.count)")
        }
        self.values = values
    }

    /// Normalizes 28x28 intensities in [0, 255] exactly as ToTensor + Normalize
    /// do in float32: divide by 255, subtract the mean, divide by the std.
    init(intensities: [Float]) {
        self.init(count: intensities.count) { intensities[$0] }
    }

    /// The same from float64 intensities, each first rounded to float32 (as
    /// torch's float32 tensors hold them), without an intermediate array.
    init(intensities: [Double]) {
        self.init(count: intensities.count) { Float(intensities[$0]) }
    }

    /// Normalizes `count` intensities, the i-th given by `intensity(i)`.
    @inline(__always)
    private init(count: Int, _ intensity: (Int) -> Float) {
        precondition(count == Self.count)
        values = [Float](unsafeUninitializedCapacity: count) { values, initialized in
            for i in 0..<count { values[i] = (intensity(i) / 255 - Self.mean) / Self.std }
            initialized = count
        }
    }

    /// The value at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> Float {
        values[y * Self.side + x]
    }

    /// The pixel intensity in [0, 1] a value stands for (the normalization undone).
    public static func intensity(ofNormalized value: Float) -> Float {
        min(1, max(0, value * std + mean))
    }
}
