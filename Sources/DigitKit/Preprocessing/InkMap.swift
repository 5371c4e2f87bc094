/// An ink map held by its ink: the pixels whose value is above 0, row-major,
/// with their values; every other pixel is 0. Ink covers a small part of a
/// picture, so the steps after extraction (components, crop) visit these
/// pixels only, not the whole picture.
struct InkMap: Sendable {
    let width: Int, height: Int
    /// Pixel indices, y * width + x, increasing.
    private(set) var indices: [Int]
    /// The value of each of those pixels, in (0, 1].
    private(set) var values: [Double]

    init(width: Int, height: Int, indices: [Int], values: [Double]) {
        precondition(indices.count == values.count)
        self.width = width
        self.height = height
        self.indices = indices
        self.values = values
    }

    var count: Int { indices.count }

    /// The box around the ink pixels; nil when there are none.
    var boundingBox: BoundingBox? {
        var box: BoundingBox?
        forEachPixel { x, y, _ in
            let pixel = BoundingBox(minX: x, minY: y, maxX: x, maxY: y)
            if box == nil { box = pixel } else { box!.include(pixel) }
        }
        return box
    }

    /// Calls `body` with the column, row and value of each ink pixel, in
    /// order. The row is followed as the indices increase, so that no pixel
    /// costs a division.
    @inline(__always)
    func forEachPixel(_ body: (_ x: Int, _ y: Int, _ value: Double) -> Void) {
        var y = 0, rowStart = 0
        for k in indices.indices {
            let index = indices[k]
            while index >= rowStart + width {
                y += 1
                rowStart += width
            }
            body(index - rowStart, y, values[k])
        }
    }

    /// The map with only the pixels for which `keep` (given each pixel's
    /// position in `indices`) is true.
    func filtered(_ keep: (Int) -> Bool) -> InkMap {
        var kept = InkMap(width: width, height: height, indices: [], values: [])
        kept.indices.reserveCapacity(count)
        kept.values.reserveCapacity(count)
        for k in indices.indices where keep(k) {
            kept.indices.append(indices[k])
            kept.values.append(values[k])
        }
        return kept
    }

    /// The highest value inside `box`; 0 where no ink is there.
    func peak(in box: BoundingBox) -> Double {
        var peak = 0.0
        forEachPixel { x, y, value in
            if box.contains(x: x, y: y) { peak = max(peak, value) }
        }
        return peak
    }

    /// The rectangle `box` as a raster, each value times `scale`. Every ink
    /// pixel must lie in `box`.
    func cropped(_ box: BoundingBox, scale: Double) -> Raster {
        var out = [Double](repeating: 0, count: box.width * box.height)
        forEachPixel { x, y, value in
            precondition(box.contains(x: x, y: y))
            out[(y - box.minY) * box.width + (x - box.minX)] = value * scale
        }
        return Raster(width: box.width, height: box.height, values: out)
    }
}
