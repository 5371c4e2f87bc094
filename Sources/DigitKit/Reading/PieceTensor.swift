/// One candidate digit: the ink of a glyph between two cuts, normalized as
/// MNIST normalized its digits (20-pixel box, centred by mass) so that the
/// model sees each piece as it sees a single digit.
struct PieceTensor {
    let tensor: DigitTensor
    /// The piece's ink box in the glyph raster's coordinates.
    let box: BoundingBox

    /// A straight cut through a neighbour's stroke leaves slivers of it in
    /// the piece; connected parts with less than this share of the piece's
    /// largest part are dropped.
    static let sliver = 0.2

    /// The piece of `raster` in columns `columns`, or nil when it holds no ink.
    init?(_ raster: Raster, columns: Range<Int>) {
        // The piece's ink as an ink map over the columns, so that its parts can be labelled.
        var indices: [Int] = [], values: [Double] = []
        let width = columns.count
        for y in 0..<raster.height {
            for x in columns where raster[x, y] > 0 {
                indices.append(y * width + x - columns.lowerBound)
                values.append(raster[x, y])
            }
        }
        guard !indices.isEmpty else { return nil }
        let map = InkMap(width: width, height: raster.height, indices: indices, values: values)
        let (labels, parts) = ConnectedComponents.label(map)
        let largest = parts.map(\.area).max()!
        let kept = parts.map { Double($0.area) >= Double(largest) * Self.sliver }
        var found: BoundingBox?
        for (part, keep) in zip(parts, kept) where keep {
            if found == nil { found = part.box } else { found!.include(part.box) }
        }
        var k = -1
        let cleaned = map.filtered { _ in k += 1; return kept[Int(labels[k]) - 1] }
        let shifted = found!
        let ink = cleaned.cropped(shifted, scale: 1)
        let box = BoundingBox(minX: shifted.minX + columns.lowerBound, minY: shifted.minY,
                              maxX: shifted.maxX + columns.lowerBound, maxY: shifted.maxY)
        guard let field = MNISTNormalizer.centred(MNISTNormalizer.scaled(ink)) else { return nil }
        self.tensor = DigitTensor(intensities: field.values)
        self.box = box
    }
}
