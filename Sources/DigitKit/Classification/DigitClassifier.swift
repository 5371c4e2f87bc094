/// The whole job in one place: decode a picture (PNG, JPEG or PNM), preprocess it, run the model.
/// `classification(ofFileAtPath:)` and its siblings answer with a
/// `Classification`: the prediction or no digit (blank or near-blank: no
/// guess is made), the preprocessing's warnings and the uncertain mark.
/// Use it from any thread; it holds no mutable state.
/// Many inputs at once: `classify(_:options:each:)` (BatchClassification.swift).
public struct DigitClassifier: Sendable {
    /// The TorchScript model that classifies each tensor.
    public let model: DigitModel
    /// Reads every input; by default `ImageDecoder.forClassification`, which
    /// decodes large JPEGs at the reduced size the preprocessing looks at.
    public var decoder: ImageDecoder
    /// Turns each decoded picture into the model's 28x28 tensor, or finds no digit.
    public var preprocessor: Preprocessor
    /// When an answer is marked uncertain (`Classification.isUncertain`).
    public var uncertainty = UncertaintyRule()

    /// A classifier from a loaded model, with the classification decoder and the
    /// MNIST pipeline by default; nothing is checked or loaded here.
    public init(model: DigitModel, decoder: ImageDecoder = .forClassification, preprocessor: Preprocessor = Preprocessor()) {
        self.model = model
        self.decoder = decoder
        self.preprocessor = preprocessor
    }

    /// Loads the model at `modelPath` and classifies with default settings.
    public init(modelPath: String) throws(DigitError) {
        self.init(model: try DigitModel(path: modelPath))
    }

    /// The tensor the model sees for the picture at `path` ("-" for standard
    /// input), or nil when no digit is found.
    public func tensor(forFileAtPath path: String) throws(DigitError) -> DigitTensor? {
        try preprocessor.stages(for: decoder.decode(fileAtPath: path)).tensor
    }

    /// The answer for the picture file at `path` ("-" for standard input).
    public func classification(ofFileAtPath path: String) throws(DigitError) -> Classification {
        try classification(of: decoder.decode(fileAtPath: path))
    }

    /// The answer for an encoded picture (PNG, JPEG or PNM bytes) held in memory.
    public func classification(ofImageBytes bytes: [UInt8]) throws(DigitError) -> Classification {
        try classification(of: decoder.decode(bytes: bytes))
    }

    /// The answer for an image already in memory.
    public func classification(of image: GrayImage) throws(DigitError) -> Classification {
        let stages = try preprocessor.stages(for: image)
        guard let tensor = stages.tensor else { return Classification(prediction: nil, warnings: stages.warnings, rule: uncertainty) }
        let answer = try model.answer(for: tensor, of: stages)
        return Classification(prediction: answer.prediction, warnings: answer.warnings, rule: uncertainty)
    }

    /// Classifies the picture file at `path` ("-" for standard input); nil
    /// when no digit is found. Without the warnings and the uncertain mark.
    @available(*, deprecated, message: "use classification(ofFileAtPath:), which carries the warnings and the uncertain mark")
    public func classify(fileAtPath path: String) throws(DigitError) -> Prediction? {
        try predict(tensor(forFileAtPath: path))
    }

    /// Classifies an encoded picture (PNG, JPEG or PNM bytes) held in memory.
    @available(*, deprecated, message: "use classification(ofImageBytes:), which carries the warnings and the uncertain mark")
    public func classify(imageBytes: [UInt8]) throws(DigitError) -> Prediction? {
        try predict(preprocessor.stages(for: decoder.decode(bytes: imageBytes)).tensor)
    }

    /// Classifies PNG bytes held in memory; any format the decoder reads works.
    @available(*, deprecated, message: "use classification(ofImageBytes:)")
    public func classify(pngBytes: [UInt8]) throws(DigitError) -> Prediction? {
        try predict(preprocessor.tensor(for: decoder.decode(bytes: pngBytes)))
    }

    /// Classifies an image already in memory.
    @available(*, deprecated, message: "use classification(of:), which carries the warnings and the uncertain mark")
    public func classify(image: GrayImage) throws(DigitError) -> Prediction? {
        try predict(preprocessor.stages(for: image).tensor)
    }

    /// Classifies several images in batches, preprocessing them on every
    /// core (the batch run of `classify(_:options:each:)`); nil where no digit was found.
    public func classify(images: [GrayImage]) throws(DigitError) -> [Prediction?] {
        do {
            return try classify(images.map { .image($0, name: "") }).map(\.prediction)
        } catch {
            // Decoded images cannot fail; only the model can.
            throw (error as? DigitError) ?? DigitError(.inferenceFailed, "\(error)")
        }
    }

    private func predict(_ tensor: DigitTensor?) throws(DigitError) -> Prediction? {
        try tensor.map { (tensor) throws(DigitError) in try model.predict(tensor) }
    }
}
