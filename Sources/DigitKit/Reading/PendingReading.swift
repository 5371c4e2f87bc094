/// A picture cut into characters, its runs read by the line model, waiting
/// for the digit model's answers about its candidate pieces: the two halves
/// of a reading, so that a batch reading can ask the digit model about the
/// pieces of many pictures in one forward pass (as `classify` does with
/// whole pictures) while the workers cut the next ones.
struct PendingReading: Sendable {
    /// The picture's size as decoded, in which the boxes are given.
    let pictureWidth: Int, pictureHeight: Int
    /// The size of the picture at analysis size, in which the ink was cut.
    let analysisWidth: Int, analysisHeight: Int
    /// The glyphs' boxes at analysis size (not the ink map itself, nor the
    /// runs' rasters: a batch holds many pending readings).
    let glyphBoxes: [BoundingBox]
    let layout: NumberLayout
    /// Whether the reader saw ink beside the number that it did not read
    /// (`NumberLayout.unread`, `NumberSegmentation.leftOut`).
    let leftUnread: Bool
    let segmentations: [GlyphSegmentation]
    /// Per digit glyph, whether the line model read it as a run.
    let readAsRun: [Bool]
    let length: Int?
    /// Per digit glyph, the readings with 1, 2, ... digits found so far (the
    /// line model's, for a run).
    let options: [[(score: Double, pieces: [GlyphSegmentation.Piece])?]]
    /// The digit glyphs whose candidate pieces the digit model reads.
    let asked: [Int]

    /// How many pieces `tensors` holds.
    var pieceCount: Int {
        asked.reduce(0) { $0 + segmentations[$1].candidates.count }
    }

    /// The pieces to classify, in the order `finish` expects their predictions.
    var tensors: [DigitTensor] {
        asked.flatMap { segmentations[$0].candidates.map(\.piece.tensor) }
    }

    /// `cut`, of a picture of the given size, with its runs read by
    /// `lineModel`. Throws only the line model's error.
    init(_ cut: NumberSegmentation, pictureWidth: Int, pictureHeight: Int, length: Int?, lineModel: LineModel?) throws(DigitError) {
        (self.pictureWidth, self.pictureHeight) = (pictureWidth, pictureHeight)
        (analysisWidth, analysisHeight) = (cut.gray.width, cut.gray.height)
        glyphBoxes = cut.ink.glyphs.map(\.box)
        readAsRun = cut.runs.map { $0 != nil && lineModel != nil }
        leftUnread = !cut.layout.unread.isEmpty || cut.leftOut
        (self.layout, self.segmentations, self.length) = (cut.layout, cut.segmentations, length)
        // The runs first: the line model reads each with every count of
        // digits. Where one digit is its best count, the digit model, the
        // surer reader of single digits, gives the one-digit reading (of the
        // whole glyph); otherwise it is not asked about the run at all.
        var options: [[(score: Double, pieces: [GlyphSegmentation.Piece])?]] = []
        var asked: [Int] = []
        for (k, run) in cut.runs.enumerated() {
            guard let run, let lineModel else {
                options.append([])
                asked.append(k)
                continue
            }
            let read = run.options(try lineModel.logProbabilities(for: run.tensor))
            let count = PieceCountChoice.bestCount(read)
            options.append(read.isEmpty ? [nil] : read)
            if count <= 1 { asked.append(k) }
        }
        self.options = options
        self.asked = asked
    }

    /// The reading, given the digit model's predictions for `tensors`, in order.
    func finish(_ predictions: ArraySlice<Prediction>) -> NumberReading {
        var options = self.options
        var offset = predictions.startIndex
        for k in asked {
            let candidates = segmentations[k].candidates.count
            let cuts = segmentations[k].bestCuts(predictions[offset..<(offset + candidates)])
            offset += candidates
            if !readAsRun[k] { options[k] = cuts } else { options[k][0] = cuts.first ?? nil }
        }
        let choice = PieceCountChoice(options: options, length: length)
        var characters: [(x: Int, character: NumberReading.Character)] = []
        let scale = (x: Double(pictureWidth) / Double(analysisWidth), y: Double(pictureHeight) / Double(analysisHeight))
        func pictureBox(_ box: BoundingBox) -> PixelRectangle {
            let left = Int((Double(box.minX) * scale.x).rounded(.down)), top = Int((Double(box.minY) * scale.y).rounded(.down))
            let right = min(pictureWidth, Int((Double(box.maxX + 1) * scale.x).rounded(.up)))
            let bottom = min(pictureHeight, Int((Double(box.maxY + 1) * scale.y).rounded(.up)))
            return PixelRectangle(x: left, y: top, width: max(1, right - left), height: max(1, bottom - top))
        }
        var confidence = 1.0
        var warnings: [ReadingWarning] = leftUnread ? [.unreadInk] : []
        var touching = segmentations.contains { $0.boundaries.count > 2 }
        for (k, glyphIndex) in layout.digitGlyphs.enumerated() {
            let glyph = glyphBoxes[glyphIndex]
            // A glyph with no reading at all (PieceCountChoice) adds no digit.
            let count = choice.pieceCounts[k]
            guard count > 0, let chosen = options[k][count - 1] else { continue }
            for piece in chosen.pieces {
                // The line model's pieces share out a run's columns: their width says nothing of a missed digit.
                touching = touching || (!readAsRun[k] && GlyphSegmentation.isUnusuallyWide(piece.box, digit: piece.digit))
                let box = BoundingBox(minX: glyph.minX + piece.box.minX, minY: glyph.minY + piece.box.minY,
                                      maxX: glyph.minX + piece.box.maxX, maxY: glyph.minY + piece.box.maxY)
                confidence *= piece.probability
                if piece.notADigit > piece.probability && !warnings.contains(.notADigit) { warnings.append(.notADigit) }
                characters.append((box.minX, .init(kind: .digit(piece.digit), confidence: piece.probability, box: pictureBox(box))))
            }
        }
        for (glyphIndex, kind) in layout.marks {
            let box = glyphBoxes[glyphIndex]
            characters.append((box.minX, .init(kind: kind, confidence: 1, box: pictureBox(box))))
        }
        guard characters.contains(where: { if case .digit = $0.character.kind { true } else { false } }) else { return .noDigit }
        characters.sort { $0.x < $1.x }
        return NumberReading(characters: characters.map(\.character), confidence: confidence,
                             ambiguous: choice.ambiguous || layout.extraMarks,
                             mayHoldTouchingDigits: touching, warnings: warnings)
    }
}
