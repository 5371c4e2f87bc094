/// One candidate digit: the ink of a glyph between two cuts (CutPath), normalized by
/// the pipeline's own normalization tail (step 10: 20-pixel box, centred by
/// mass, `NormalizationTail`) so that the model sees each piece as it sees a
/// single digit, thin strokes thickened as a single digit's are.
struct PieceTensor {
    let tensor: DigitTensor
    /// The piece's ink box in the glyph raster's coordinates.
    let box: BoundingBox

    /// A straight cut through a neighbour's stroke leaves slivers of it in
    /// the piece; connected parts with less than 1/`sliverShare` of the
    /// piece's largest part are dropped.
    static let sliverShare = 5

    /// The least grey level of a piece's ink: weak ink is left out, as the
    /// single-digit path leaves it out (`InkExtractor.strong`), so that a
    /// piece is read as `digits classify` reads the same digit. The cuts
    /// between touching digits still see it.
    static let strongLevel = 255 * InkExtractor.weakShare

    /// The piece of `raster` between the cuts `left` and `right` (in each
    /// row y, columns left.column[y]..<right.column[y]), or nil when it
    /// holds no ink.
    init?(_ raster: Raster, between left: CutPath, and right: CutPath) {
        // The piece's ink as an ink map over the columns it spans, so that its parts can be labelled.
        let leftmost = left.column.min() ?? 0
        let columns = leftmost..<max(leftmost + 1, right.column.max() ?? 0)
        var indices: [Int] = [], values: [Double] = []
        let width = columns.count
        for y in 0..<raster.height {
            for x in left.column[y]..<max(left.column[y], right.column[y]) where raster[x, y] >= Self.strongLevel {
                indices.append(y * width + x - columns.lowerBound)
                values.append(raster[x, y])
            }
        }
        guard !indices.isEmpty else { return nil }
        let map = InkMap(width: width, height: raster.height, indices: indices, values: values)
        let (labels, parts) = ConnectedComponents.label(map)
        let (cleaned, shifted, _) = ConnectedComponents.largeParts(of: map, labels: labels, components: parts, share: Self.sliverShare)
        let ink = cleaned.cropped(shifted, scale: 1)
        let box = BoundingBox(minX: shifted.minX + columns.lowerBound, minY: shifted.minY,
                              maxX: shifted.maxX + columns.lowerBound, maxY: shifted.maxY)
        var analysis = PipelineAnalysis()
        guard let normalized = NormalizationTail().run(ink, into: &analysis) else { return nil }
        self.tensor = normalized.tensor
        self.box = box
    }
}
