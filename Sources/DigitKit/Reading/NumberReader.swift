/// Reads whole numbers ("2026", "3.14", "-12") in pictures, handwritten or
/// printed, with the single-digit model and, for digits that touch, the
/// line model.
///
/// The picture goes through the same decoding, polarity and background steps
/// as for `DigitClassifier`; its ink is then cut into glyphs (NumberInk:
/// connected components, a digit's separate strokes merged). Small glyphs
/// are decimal points or a minus sign by their place on the line
/// (Punctuation), or specks. A glyph wider than high may hold several
/// touching digits: the line model reads it whole (LineRun), and the
/// single-digit model reads it when the line model finds one digit in it.
/// Without a line model, such a glyph is cut at the valleys of its column
/// profile, every piece between two cuts is normalized as MNIST's digits
/// were and classified, all in one batch, and the cut whose pieces the
/// model reads most surely wins (GlyphSegmentation).
/// Use it from any thread; it holds no mutable state.
public struct NumberReader: Sendable {
    /// The single-digit model that reads every piece.
    public let model: DigitModel
    /// The model that reads a glyph too wide for one digit (a run of
    /// touching or overlapping digits) whole; without it, such a glyph is
    /// cut into pieces for `model` (GlyphSegmentation), which reads touching
    /// digits right far less often (docs/read.md).
    public let lineModel: LineModel?
    /// Reads every input (PNG, JPEG, PNM).
    public var decoder: ImageDecoder
    /// The polarity and ink steps; its mode must be `.mnist` (the raw resize
    /// finds no ink to cut).
    public var preprocessor: Preprocessor
    /// Whether ink too wide for one digit is cut into several (the default);
    /// false reads every glyph as one digit, the plain connected-component
    /// split, to measure what the cutting adds.
    public var cutsTouchingDigits = true
    /// The most candidate pieces classified in one forward pass.
    public static let batchSize = 256
    /// When the cut chosen is less than this many times as likely as another
    /// cut into a different number of digits, the reading is `ambiguous`.
    public static let ambiguityRatio = 3.0

    /// A reader with the given models, the classification decoder and the
    /// MNIST pipeline; nothing is checked or loaded here. Pass
    /// `LineModel.shipped()` as `lineModel` to read touching digits well.
    public init(model: DigitModel, lineModel: LineModel? = nil, decoder: ImageDecoder = .forClassification,
                preprocessor: Preprocessor = Preprocessor()) {
        self.model = model
        self.lineModel = lineModel
        self.decoder = decoder
        self.preprocessor = preprocessor
    }

    /// Reads the picture file at `path` ("-" for standard input). With
    /// `length`, the number has exactly that many digits (a meter, a year, a
    /// code) and the best cut under that constraint is chosen.
    public func read(fileAtPath path: String, length: Int? = nil) throws(DigitError) -> NumberReading {
        try read(decoder.decode(fileAtPath: path), length: length)
    }

    /// Throws unless `length` is nil or at least 1: the check of a number's
    /// length, for one picture and, before any input, for a batch reading.
    static func check(length: Int?) throws(DigitError) {
        if let length, length < 1 {
            throw DigitError(.invalidArgument, "the number's length must be at least 1, got \(length)")
        }
    }

    /// Reads a decoded picture; see `read(fileAtPath:length:)`.
    public func read(_ image: GrayImage, length: Int? = nil) throws(DigitError) -> NumberReading {
        try Self.check(length: length)
        guard let pending = try pending(image, length: length) else { return .noDigit }
        return try finish(pending)
    }

    /// `image` cut into characters, its runs read by the line model; nil
    /// when the picture holds no digit. Throws the ink locator's and the
    /// line model's errors.
    func pending(_ image: GrayImage, length: Int?) throws(DigitError) -> PendingReading? {
        guard let cut = try NumberSegmentation(image, preprocessor: preprocessor, cuts: cutsTouchingDigits, length: length,
                                           readsRunsWhole: lineModel != nil) else { return nil }
        return try PendingReading(cut, pictureWidth: image.width, pictureHeight: image.height, length: length, lineModel: lineModel)
    }

    /// The reading of `pending`, its pieces classified on this thread.
    func finish(_ pending: PendingReading) throws(DigitError) -> NumberReading {
        pending.finish(try classify(pending.tensors)[...])
    }

    /// The digit model's predictions for `tensors`, in batches of at most
    /// `batchSize`, so that a picture of noise with thousands of glyphs (or
    /// a batch reading's many pictures) costs time, not libtorch memory
    /// without bound.
    func classify(_ tensors: [DigitTensor]) throws(DigitError) -> [Prediction] {
        var predictions: [Prediction] = []
        predictions.reserveCapacity(tensors.count)
        for start in stride(from: 0, to: tensors.count, by: Self.batchSize) {
            predictions += try model.predict(Array(tensors[start..<min(tensors.count, start + Self.batchSize)]))
        }
        return predictions
    }
}
