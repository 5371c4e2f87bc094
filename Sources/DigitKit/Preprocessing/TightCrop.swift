/// Step 5 (`StrokeWidthStage`): tells a picture cropped tight to its ink on
/// plain paper (`convert -trim`, a screenshot or a photo cut to the digit),
/// and which of its pixels are paper, so that `Preprocessor` measures the
/// background and the noise on those alone.
///
/// Why: a local background is the median of each cell, and cropped tight a
/// thick marker stroke fills whole cells, which then count as background:
/// the stroke comes out hollow, its two edges read as two thin strokes
/// (a 9 read as a 3). Ink over half the picture also sets the noise level,
/// measured as the residuals' median, above the ink itself ("no digit
/// found" on a thick 1). Widening the cells does not help once the ink
/// is the majority of a cell's pixels.
///
/// Such a picture is two levels, ink and paper: Otsu's split of its grey
/// levels explains at least `twoLevels` of their variance (ink on plain
/// paper scores high; grain, shadows or a desk lower it: docs/decisions.md,
/// "Tight crops"), and the ink's side of the split, its largest
/// 8-connected group, reaches to within 3% of at least three edges.
enum TightCrop {
    /// Ink within this many hundredths of a side of an edge touches it.
    static let edgeShare = 3
    /// The least separability (`OtsuLevel.split`) of a picture of two levels.
    static let twoLevels = 0.9

    /// The paper of `raster` within `region` when it is a tight crop of ink
    /// of the given polarity on plain paper: the region's pixels on the
    /// paper's side of Otsu's level; nil for any other picture. `levels`,
    /// when given, are the grey levels `raster` was made of, one byte a
    /// pixel: the same answer, read from a smaller array.
    static func paperSide(of raster: Raster, levels: [UInt8]? = nil, region: PaperRegion, inkIsDark: Bool) -> PaperRegion? {
        let width = raster.width, height = raster.height
        precondition(levels.map { $0.count == raster.values.count } ?? true)
        let histogram = levels.map { OtsuLevel.histogram(levels: $0, mask: region.mask) }
            ?? OtsuLevel.histogram(raster.values, mask: region.mask)
        let (level, separability) = OtsuLevel.split(histogram)
        guard separability >= twoLevels else { return nil }
        let ink = inkSide(of: raster, levels: levels, level: level, region: region, inkIsDark: inkIsDark)
        guard holds(ink, width: width, height: height) else { return nil }
        var paper = region.mask ?? [Bool](repeating: true, count: raster.values.count)
        for index in ink { paper[index] = false }
        return PaperRegion(width: width, height: height, mask: paper, borderBrightShare: region.borderBrightShare)
    }

    /// The pixels of `region` on the ink's side of Otsu's `level`, in
    /// increasing order: dark ink is the lower class (levels at or below
    /// Otsu's), light ink the upper. Where the whole picture is the region
    /// and its bytes are given, read from them (`bin` of a byte's level is
    /// the byte): a plain loop over an eighth of the memory, no closure.
    static func inkSide(of raster: Raster, levels: [UInt8]?, level: Int, region: PaperRegion, inkIsDark: Bool) -> [Int] {
        guard let levels, region.mask == nil else {
            return raster.values.indices.filter {
                region.contains($0) && (OtsuLevel.bin(raster.values[$0]) <= level) == inkIsDark
            }
        }
        var ink: [Int] = []
        levels.withUnsafeBufferPointer { bytes in
            for index in 0..<bytes.count where (Int(bytes[index]) <= level) == inkIsDark { ink.append(index) }
        }
        return ink
    }

    /// Whether the box around the pixels `marked` (row-major indices,
    /// increasing) reaches to within 3% of at least three edges.
    static func boxReachesThreeEdges(_ marked: [Int], width: Int, height: Int) -> Bool {
        guard let first = marked.first, let last = marked.last else { return false }
        var minX = width, maxX = 0
        for index in marked {
            let x = index % width
            minX = min(minX, x)
            maxX = max(maxX, x)
        }
        return reachesThreeEdges(BoundingBox(minX: minX, minY: first / width, maxX: maxX, maxY: last / width), width: width, height: height)
    }

    /// Whether `box` reaches to within 3% of at least three edges of a
    /// picture `width` x `height`.
    static func reachesThreeEdges(_ box: BoundingBox, width: Int, height: Int) -> Bool {
        let mx = max(1, width * edgeShare / 100), my = max(1, height * edgeShare / 100)
        return [box.minX < mx, box.minY < my, box.maxX >= width - mx, box.maxY >= height - my].filter { $0 }.count >= 3
    }

    /// Whether the largest 8-connected group of the pixels `marked`
    /// (row-major indices, increasing) reaches to within 3% of at least
    /// three of the picture's edges.
    static func holds(_ marked: [Int], width: Int, height: Int) -> Bool {
        // The largest group lies inside the box of all marked pixels: when
        // that box reaches fewer than three edges, so does the group, and
        // nothing need be labelled.
        guard boxReachesThreeEdges(marked, width: width, height: height) else { return false }
        let map = InkMap(width: width, height: height, indices: marked, values: Array(repeating: 1, count: marked.count))
        let components = ConnectedComponents.label(map).components
        let largest = components.map(\.area).max()!
        return reachesThreeEdges(components.first { $0.area == largest }!.box, width: width, height: height)
    }
}
