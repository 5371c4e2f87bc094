/// A cut through a glyph from its top row to its bottom one that may bend
/// around strokes: digits that touch or overlap rarely leave a straight
/// gap, and a straight cut hands a piece of one digit to its neighbour.
/// Found as the path through the least ink (a seam: each row's cut at most
/// one column from the row above's) within `reach` columns of a valley
/// column, the way shortest-path segmentation of handwriting cuts.
struct CutPath: Equatable {
    /// For each row of the glyph, the first column right of the cut: the
    /// pixels of columns `..<column[y]` lie left of it.
    let column: [Int]

    /// A straight cut before column `x` of a raster `height` rows high.
    static func straight(at x: Int, height: Int) -> CutPath {
        CutPath(column: Array(repeating: x, count: height))
    }

    /// The cut through the least ink of `raster` that starts within
    /// `reach` columns of `anchor` and stays there; at equal ink, the one
    /// nearer `anchor`. Every row's column lies in 1..<raster.width.
    static func leastInk(in raster: Raster, near anchor: Int, reach: Int) -> CutPath {
        let low = max(1, anchor - reach), high = min(raster.width - 1, anchor + reach)
        guard low < high else { return straight(at: min(max(anchor, 1), raster.width - 1), height: raster.height) }
        let span = high - low + 1
        // The tie-breaker: a step away from the anchor costs this share of the brightest ink.
        let drift = 0.02 * 255
        func cost(_ x: Int, _ y: Int) -> Double {
            raster[x, y] + drift * Double(abs(x - anchor))
        }
        // total[y][i]: the least cost of a cut from the top row to column low + i of row y; came[y][i] its column in row y - 1.
        var total = (0..<span).map { cost(low + $0, 0) }
        var came = [[Int]](repeating: [Int](repeating: 0, count: span), count: raster.height)
        for y in 1..<raster.height {
            var next = [Double](repeating: 0, count: span)
            for i in 0..<span {
                var best = i
                if i > 0 && total[i - 1] < total[best] { best = i - 1 }
                if i + 1 < span && total[i + 1] < total[best] { best = i + 1 }
                next[i] = total[best] + cost(low + i, y)
                came[y][i] = best
            }
            total = next
        }
        var i = total.indices.min { total[$0] < total[$1] } ?? 0
        var column = [Int](repeating: 0, count: raster.height)
        for y in stride(from: raster.height - 1, through: 0, by: -1) {
            column[y] = low + i
            i = came[y][i]
        }
        return CutPath(column: column)
    }

    /// This cut moved right wherever it passes left of `other`, so that
    /// cuts taken left to right never cross.
    func notLeft(of other: CutPath) -> CutPath {
        CutPath(column: zip(column, other.column).map { max($0, $1) })
    }
}
