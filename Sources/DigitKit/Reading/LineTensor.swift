internal import TorchBridgeLoader

/// The line model's input for one run of digits: the run's ink box scaled
/// to `inkHeight` (20) pixels high, aspect kept (area averaging when
/// shrinking, bilinear when enlarging, as MNISTNormalizer scales a digit),
/// with `margin` (4) pixels of background on every side, normalized as a
/// DigitTensor is. Models/train_line.py's `line_tensor` makes the same
/// picture for training.
public struct LineTensor: Sendable, Equatable {
    /// The tensor's height: TorchBridge's TB_LINE_HEIGHT.
    public static let height = Int(TB_LINE_HEIGHT)
    /// The ink's height in the tensor.
    static let inkHeight = 20
    /// Background pixels around the ink.
    static let margin = (height - inkHeight) / 2
    /// The widest tensor the bridge takes (TB_LINE_MAX_WIDTH); a wider run is
    /// not given to the line model.
    static let maximumWidth = Int(TB_LINE_MAX_WIDTH)

    /// Columns.
    public let width: Int
    /// `height * width` normalized values, row-major.
    public let values: [Float]
    /// How many of the run's columns one tensor column stands for: a
    /// column x of the tensor shows the run's columns from
    /// (x - margin) * columnScale on.
    let columnScale: Double

    /// Wraps values that are already normalized, `height` rows of `width`;
    /// throws `invalidArgument` unless `width` is 8-4096 (TB_LINE_MIN_WIDTH
    /// to TB_LINE_MAX_WIDTH) and there are `height * width` values. Each
    /// column stands for one column of the picture.
    public init(width: Int, values: [Float]) throws(DigitError) {
        guard (Int(TB_LINE_MIN_WIDTH)...Self.maximumWidth).contains(width), values.count == Self.height * width else {
            throw DigitError(.invalidArgument, "a line tensor is 8 to \(Self.maximumWidth) columns of \(Self.height) values, got \(values.count) values for \(width) columns")
        }
        self.width = width
        self.values = values
        self.columnScale = 1
    }

    /// The tensor of `run`, a glyph's ink (grey levels 0-255, 0 where there
    /// is none, cropped to its ink box); nil when the scaled run would be
    /// wider than `maximumWidth`.
    init?(_ run: Raster) {
        let scale = Double(Self.inkHeight) / Double(run.height)
        let inkWidth = max(1, Int((Double(run.width) * scale + 0.5).rounded(.down)))
        let width = inkWidth + 2 * Self.margin
        guard width <= Self.maximumWidth else { return nil }
        let scaled = scale < 1
            ? AreaResampler.resize(run, targetWidth: inkWidth, targetHeight: Self.inkHeight)
            : BilinearResampler.resize(run, targetWidth: inkWidth, targetHeight: Self.inkHeight)
        let background = (0 - DigitTensor.mean) / DigitTensor.std
        var values = [Float](repeating: background, count: Self.height * width)
        for y in 0..<Self.inkHeight {
            for x in 0..<inkWidth {
                let intensity = Float(min(255, max(0, scaled[x, y])))
                values[(y + Self.margin) * width + x + Self.margin] = (intensity / 255 - DigitTensor.mean) / DigitTensor.std
            }
        }
        self.width = width
        self.values = values
        self.columnScale = Double(run.width) / Double(inkWidth)
    }
}
