/// Reads whole numbers ("2026", "3.14", "-12") in pictures, handwritten or
/// printed, with the single-digit model.
///
/// The picture goes through the same decoding, polarity and background steps
/// as for `DigitClassifier`; its ink is then cut into glyphs (NumberInk:
/// connected components, a digit's separate strokes merged). Small glyphs
/// are decimal points or a minus sign by their place on the line
/// (Punctuation), or specks. A glyph may hold several touching digits: it is
/// cut at the valleys of its column profile, every piece between two cuts is
/// normalized as MNIST's digits were and classified, all in one batch, and
/// the cut whose pieces the model reads most surely wins (GlyphSegmentation).
/// Use it from any thread; it holds no mutable state.
public struct NumberReader: Sendable {
    /// The single-digit model that reads every piece.
    public let model: DigitModel
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

    /// A reader with the given model, the classification decoder and the
    /// MNIST pipeline; nothing is checked or loaded here.
    public init(model: DigitModel, decoder: ImageDecoder = .forClassification, preprocessor: Preprocessor = Preprocessor()) {
        self.model = model
        self.decoder = decoder
        self.preprocessor = preprocessor
    }

    /// Reads the picture file at `path` ("-" for standard input). With
    /// `length`, the number has exactly that many digits (a meter, a year, a
    /// code) and the best cut under that constraint is chosen.
    public func read(fileAtPath path: String, length: Int? = nil) throws(DigitError) -> NumberReading {
        try read(decoder.decode(fileAtPath: path), length: length)
    }

    /// The ink the reader cuts into characters, for showing (`digits read
    /// --steps`): the picture at analysis size (at most
    /// `Preprocessor.analysisSide` on its longer side) with its ink
    /// contrast-stretched to 255 and everything else 0; nil when no ink
    /// stands out of the noise.
    public func inkPicture(for image: GrayImage) -> Raster? {
        guard let map = preprocessor.inkMap(for: image).map, map.count > 0 else { return nil }
        return map.cropped(BoundingBox(minX: 0, minY: 0, maxX: map.width - 1, maxY: map.height - 1), scale: 255)
    }

    /// The half of `read` that needs no model: the picture at analysis
    /// size, its glyphs, which of them are digits, and the candidate pieces
    /// of each digit glyph; nil when the picture holds no digit.
    static func segment(_ image: GrayImage, preprocessor: Preprocessor, cuts: Bool = true, length: Int? = nil)
        -> (gray: Raster, ink: NumberInk, layout: NumberLayout, segmentations: [GlyphSegmentation])?
    {
        let found = preprocessor.inkMap(for: image)
        guard let map = found.map, let ink = NumberInk(map) else { return nil }
        let gray = found.gray
        let layout = NumberLayout(ink)
        guard !layout.digitGlyphs.isEmpty else { return nil }
        let mustCut = length.map { $0 > layout.digitGlyphs.count } ?? false
        let segmentations = layout.digitGlyphs.map {
            GlyphSegmentation(ink.raster(of: ink.glyphs[$0]), lineHeight: ink.lineHeight, cuts: cuts, mustCut: mustCut)
        }
        return (gray, ink, layout, segmentations)
    }

    /// For the fuzzer (Fuzz/): `segment` on `image`, checked, without a
    /// model. Returns the number of candidate pieces the model would be asked
    /// about; a broken invariant stops the process.
    @_spi(Fuzzing) public static func candidatePieceCount(_ image: GrayImage) -> Int {
        guard let (_, ink, layout, segmentations) = segment(image, preprocessor: Preprocessor()) else { return 0 }
        for (glyph, segmentation) in zip(layout.digitGlyphs, segmentations) {
            let box = ink.glyphs[glyph].box
            precondition(segmentation.boundaries.first == 0 && segmentation.boundaries.last == box.width)
            precondition(segmentation.candidates.contains { $0.from == 0 && $0.to == segmentation.boundaries.count - 1 },
                         "every glyph can be read whole")
            for candidate in segmentation.candidates {
                precondition(candidate.piece.tensor.values.count == DigitTensor.count && candidate.piece.tensor.values.allSatisfy(\.isFinite))
                precondition(candidate.piece.box.minX >= 0 && candidate.piece.box.maxX < box.width && candidate.piece.box.maxY < box.height)
            }
        }
        return segmentations.reduce(0) { $0 + $1.candidates.count }
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
        guard let (gray, ink, layout, segmentations) = Self.segment(
            image, preprocessor: preprocessor, cuts: cutsTouchingDigits, length: length) else {
            return NumberReading(characters: [], confidence: 0, ambiguous: false, mayHoldTouchingDigits: false)
        }
        // Every candidate piece of every glyph, classified in batches of at
        // most `batchSize`, so that a picture of noise with thousands of
        // glyphs costs time, not libtorch memory without bound.
        let tensors = segmentations.flatMap { $0.candidates.map(\.piece.tensor) }
        var predictions: [Prediction] = []
        predictions.reserveCapacity(tensors.count)
        for start in stride(from: 0, to: tensors.count, by: Self.batchSize) {
            predictions += try model.predict(Array(tensors[start..<min(tensors.count, start + Self.batchSize)]))
        }
        var offset = 0
        let options = segmentations.map { segmentation in
            defer { offset += segmentation.candidates.count }
            return segmentation.bestCuts(predictions[offset..<(offset + segmentation.candidates.count)])
        }
        let choice = PieceCountChoice(options: options, length: length)
        var characters: [(x: Int, character: NumberReading.Character)] = []
        let scale = (x: Double(image.width) / Double(gray.width), y: Double(image.height) / Double(gray.height))
        func pictureBox(_ box: BoundingBox) -> PixelRectangle {
            let left = Int((Double(box.minX) * scale.x).rounded(.down)), top = Int((Double(box.minY) * scale.y).rounded(.down))
            let right = min(image.width, Int((Double(box.maxX + 1) * scale.x).rounded(.up)))
            let bottom = min(image.height, Int((Double(box.maxY + 1) * scale.y).rounded(.up)))
            return PixelRectangle(x: left, y: top, width: max(1, right - left), height: max(1, bottom - top))
        }
        var confidence = 1.0
        var touching = segmentations.contains { $0.boundaries.count > 2 }
        for (k, glyphIndex) in layout.digitGlyphs.enumerated() {
            let glyph = ink.glyphs[glyphIndex].box
            for piece in options[k][choice.pieceCounts[k] - 1]!.pieces {
                touching = touching || GlyphSegmentation.isUnusuallyWide(piece.box, digit: piece.digit)
                let box = BoundingBox(minX: glyph.minX + piece.box.minX, minY: glyph.minY + piece.box.minY,
                                      maxX: glyph.minX + piece.box.maxX, maxY: glyph.minY + piece.box.maxY)
                confidence *= piece.probability
                characters.append((box.minX, .init(kind: .digit(piece.digit), confidence: piece.probability, box: pictureBox(box))))
            }
        }
        for (glyphIndex, kind) in layout.marks {
            let box = ink.glyphs[glyphIndex].box
            characters.append((box.minX, .init(kind: kind, confidence: 1, box: pictureBox(box))))
        }
        characters.sort { $0.x < $1.x }
        return NumberReading(characters: characters.map(\.character), confidence: confidence,
                             ambiguous: choice.ambiguous || layout.extraMarks,
                             mayHoldTouchingDigits: touching)
    }
}
