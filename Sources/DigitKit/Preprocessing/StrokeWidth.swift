/// Step 5 (`StrokeWidthStage`): how wide the strokes of a set of pixels are:
/// twice their area over the number of them on the set's edge (a pixel with a
/// 4-neighbour outside the set; beyond the picture counts as inside). A
/// stroke of width w and length l has about w l pixels and 2 l on its edges.
///
/// `Preprocessor` measures the strokes standing out from a first background
/// surface, and widens the surface's cells to match: a thick marker stroke
/// wider than a cell would otherwise be taken for background where it is
/// densest.
enum StrokeWidth {
    /// The width of the strokes made of `indices` (row-major pixel indices
    /// in a picture `width` x `height`, increasing); 0 for none.
    static func of(_ indices: [Int], width: Int, height: Int) -> Double {
        guard !indices.isEmpty else { return 0 }
        var set = [Bool](repeating: false, count: width * height)
        for index in indices { set[index] = true }
        var edge = 0
        for index in indices {
            let x = index % width, y = index / width
            let inside = (x == 0 || set[index - 1]) && (x == width - 1 || set[index + 1])
                && (y == 0 || set[index - width]) && (y == height - 1 || set[index + width])
            if !inside { edge += 1 }
        }
        return 2 * Double(indices.count) / Double(max(1, edge))
    }

    /// The width of the strokes made of `raster`'s pixels at or above
    /// `level`, as `of(_:width:height:)` measures them: one pass over the
    /// raster, with no set of indices built (the located ink's width is
    /// asked on every picture the locator sees; `LocatedInk.strokesBolder`).
    static func of(_ raster: Raster, atLeast level: Double) -> Double {
        let width = raster.width, height = raster.height
        var area = 0, edge = 0
        raster.values.withUnsafeBufferPointer { p in
            for y in 0..<height {
                let row = y * width
                for x in 0..<width where p[row + x] >= level {
                    let index = row + x
                    area += 1
                    let inside = (x == 0 || p[index - 1] >= level) && (x == width - 1 || p[index + 1] >= level)
                        && (y == 0 || p[index - width] >= level) && (y == height - 1 || p[index + width] >= level)
                    if !inside { edge += 1 }
                }
            }
        }
        return area == 0 ? 0 : 2 * Double(area) / Double(max(1, edge))
    }
}
