/// Where a glyph of touching digits may be cut: the valleys of its column
/// ink profile (where the ink is thinnest), near which each cut runs
/// (CutPath bends it around strokes), the candidates among which the
/// segmentation search chooses by recognition.
enum CutCandidates {
    /// No cut closer than this share of the line height to the glyph's edge.
    static let edgeMargin = 0.12
    /// No two cuts closer than this share of the line height.
    static let spacing = 0.12
    /// At most this many candidates per glyph (the search is quadratic in them).
    static let maximumCount = 10

    /// The columns of `raster` (a glyph's ink) before which a cut may go,
    /// left to right: each splits the glyph into columns ..<c and c...
    static func columns(in raster: Raster, lineHeight: Int) -> [Int] {
        let width = raster.width
        var profile = [Double](repeating: 0, count: width)
        for y in 0..<raster.height {
            for x in 0..<width { profile[x] += raster[x, y] }
        }
        // Smoothed with [1, 2, 1] / 4, so a one-column notch is not a valley.
        var smooth = [Double](repeating: 0, count: width)
        for x in 0..<width {
            let left: Double = profile[max(0, x - 1)], right: Double = profile[min(width - 1, x + 1)]
            smooth[x] = (left + 2 * profile[x] + right) / 4
        }
        let margin = max(2, Int((Double(lineHeight) * edgeMargin).rounded()))
        guard width > 2 * margin else { return [] }
        var valleys: [Int] = []
        for x in margin...(width - margin) {
            let left: Double = smooth[max(0, x - 1)], right: Double = smooth[min(width - 1, x + 1)]
            if smooth[x] <= left && smooth[x] <= right { valleys.append(x) }
        }
        valleys.sort { smooth[$0] != smooth[$1] ? smooth[$0] < smooth[$1] : $0 < $1 }
        let gap = max(2, Int((Double(lineHeight) * spacing).rounded()))
        var chosen: [Int] = []
        for x in valleys where chosen.allSatisfy({ abs($0 - x) >= gap }) {
            chosen.append(x)
            if chosen.count == maximumCount { break }
        }
        return chosen.sorted()
    }
}
