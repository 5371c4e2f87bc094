#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

extension NumberReader {
    /// For the fuzzer (Fuzz/): the segmentation of `image`, checked, without
    /// a model. Returns the number of candidate pieces the model would be
    /// asked about; a broken invariant stops the process.
    @_spi(Fuzzing) public static func candidatePieceCount(_ image: GrayImage) -> Int {
        // Without a locator nothing throws.
        guard let cut = try? NumberSegmentation(image, preprocessor: Preprocessor(), readsRunsWhole: true) else { return 0 }
        for run in cut.runs.compactMap({ $0 }) { checkRun(run) }
        for (glyph, segmentation) in zip(cut.layout.digitGlyphs, cut.segmentations) {
            let box = cut.ink.glyphs[glyph].box
            precondition(segmentation.boundaries.first == 0 && segmentation.boundaries.last == box.width)
            precondition(segmentation.candidates.contains { $0.from == 0 && $0.to == segmentation.boundaries.count - 1 },
                         "every glyph can be read whole")
            for candidate in segmentation.candidates {
                precondition(candidate.piece.tensor.values.count == DigitTensor.count && candidate.piece.tensor.values.allSatisfy(\.isFinite))
                precondition(candidate.piece.box.minX >= 0 && candidate.piece.box.maxX < box.width && candidate.piece.box.maxY < box.height)
            }
        }
        return cut.segmentations.reduce(0) { $0 + $1.candidates.count }
    }

    /// A run's tensor is finite and of its size, and the readings a line
    /// model might give it have pieces left to right inside the run.
    private static func checkRun(_ run: LineRun) {
        precondition(run.tensor.values.count == LineTensor.height * run.tensor.width && run.tensor.values.allSatisfy(\.isFinite))
        // Frames as a line model might give them (a new class every third
        // frame), so that the boxes of its readings are checked too.
        let frames = (0..<(run.tensor.width / 2)).map { t in
            (0..<LineModel.classCount).map { Float(log($0 == (t / 3) % LineModel.classCount ? 0.9 : 0.01)) }
        }
        for option in run.options(frames).compactMap({ $0 }) {
            let lefts = option.pieces.map(\.box.minX)
            precondition(lefts == lefts.sorted(), "pieces left to right")
            for piece in option.pieces {
                precondition(piece.box.minX >= 0 && piece.box.maxX < run.raster.width && piece.box.minY >= 0
                             && piece.box.maxY < run.raster.height && (0...1).contains(piece.probability))
            }
        }
    }
}
