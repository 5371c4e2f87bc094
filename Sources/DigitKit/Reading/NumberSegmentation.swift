/// The half of a reading that needs no model: the picture at analysis size,
/// its glyphs, which of them are digits, the candidate pieces of each digit
/// glyph, and, where runs are read whole, the run the line model reads for
/// each glyph that may hold several digits (such a glyph's segmentation then
/// offers only the whole glyph).
struct NumberSegmentation {
    /// The picture at analysis size, in which the ink was cut.
    let gray: Raster
    let ink: NumberInk
    let layout: NumberLayout
    /// Per digit glyph, its candidate pieces.
    let segmentations: [GlyphSegmentation]
    /// Per digit glyph, the run the line model reads whole, if any.
    let runs: [LineRun?]
    /// Whether ink of a digit's size beside the number was left out (`NumberSubjectInk.leftOut`).
    let leftOut: Bool

    /// Cuts `image`'s ink (`NumberSubjectInk`) into glyphs and candidate
    /// pieces; nil when the picture holds no digit. With `length`, a glyph
    /// is cut when the number needs more digits than there are glyphs.
    /// Throws what the ink locator throws.
    init?(_ image: GrayImage, preprocessor: Preprocessor, cuts: Bool = true, length: Int? = nil,
          readsRunsWhole: Bool = false) throws(DigitError) {
        let found = try NumberSubjectInk(image, preprocessor: preprocessor)
        guard let map = found.map, let ink = NumberInk(map) else { return nil }
        let layout = NumberLayout(ink)
        guard !layout.digitGlyphs.isEmpty else { return nil }
        let mustCut = length.map { $0 > layout.digitGlyphs.count } ?? false
        var segmentations: [GlyphSegmentation] = [], runs: [LineRun?] = []
        for glyph in layout.digitGlyphs {
            let raster = ink.raster(of: ink.glyphs[glyph])
            let run = cuts && readsRunsWhole && LineRun.mayHoldSeveral(raster, lineHeight: ink.lineHeight, mustCut: mustCut)
                ? LineRun(raster) : nil
            segmentations.append(GlyphSegmentation(raster, lineHeight: ink.lineHeight, cuts: cuts && run == nil, mustCut: mustCut))
            runs.append(run)
        }
        (gray, self.ink, self.layout, self.segmentations, self.runs) = (found.gray, ink, layout, segmentations, runs)
        leftOut = found.leftOut
    }
}
