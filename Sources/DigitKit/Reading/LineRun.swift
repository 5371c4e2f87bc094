#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// A glyph too wide for one digit, read whole by the line model instead of
/// cut into pieces for the digit model: its tensor, and the readings with
/// each number of digits as GlyphSegmentation gives them for cut glyphs
/// (PieceCountChoice takes both).
struct LineRun {
    /// The glyph's ink, in the glyph raster's coordinates.
    let raster: Raster
    /// What the line model is given.
    let tensor: LineTensor
    /// For each raster column, the first and last row holding ink; nil for
    /// a column without ink. Found once, so that the boxes of every reading's
    /// pieces cost a pass over columns, not over pixels.
    private let columnInk: [(top: Int, bottom: Int)?]

    /// A glyph more than this much wider than high (or than the line is
    /// high) may hold several digits and is given to the line model. Lower
    /// than GlyphSegmentation.widestSingle, which decides where to cut:
    /// the line model reads a single wide digit as one, where cutting it
    /// would split it; "4711" written close is only 1.64 times as wide as high.
    static let widestSingle = 1.0

    /// Whether the glyph `raster` goes to the line model: it is wider than
    /// `widestSingle` allows, or (`mustCut`) the number is known to hold
    /// more digits than there are glyphs.
    static func mayHoldSeveral(_ raster: Raster, lineHeight: Int, mustCut: Bool) -> Bool {
        GlyphSegmentation.mayHoldSeveral(raster, lineHeight: lineHeight, mustCut: mustCut, widest: widestSingle)
    }

    /// The run of `raster` (a glyph's ink, grey levels 0-255); nil when it
    /// is too wide for the line model.
    init?(_ raster: Raster) {
        guard let tensor = LineTensor(raster) else { return nil }
        self.raster = raster
        self.tensor = tensor
        columnInk = (0..<raster.width).map { x in
            guard let top = (0..<raster.height).first(where: { raster[x, $0] > 0 }),
                  let bottom = (0..<raster.height).last(where: { raster[x, $0] > 0 }) else { return nil }
            return (top, bottom)
        }
    }

    /// For n = 1, 2, ... digits (index n - 1): the line model's best
    /// reading with n digits, its log-probability as the score, and each
    /// digit as a piece whose box holds the ink of the columns nearer its
    /// peak than its neighbours'.
    func options(_ frames: [[Float]]) -> [(score: Double, pieces: [GlyphSegmentation.Piece])?] {
        let columnsPerFrame = Double(tensor.width) / Double(max(1, frames.count))
        /// The raster column a tensor column stands for.
        func rasterColumn(_ x: Double) -> Double {
            (x - Double(LineTensor.margin)) * tensor.columnScale
        }
        return LineDecoding(frames).best.map { option in
            option.map { option in
                let peaks = option.characters.map {
                    rasterColumn((Double($0.firstFrame + $0.lastFrame) / 2 + 0.5) * columnsPerFrame)
                }
                var edges = [0]
                for i in 1..<max(1, peaks.count) {
                    edges.append(min(raster.width, max(edges[i - 1], Int(((peaks[i - 1] + peaks[i]) / 2).rounded()))))
                }
                edges.append(raster.width)
                let pieces = option.characters.indices.map { i in
                    GlyphSegmentation.Piece(digit: option.characters[i].digit,
                                            probability: exp(option.characters[i].logProbability),
                                            box: inkBox(columns: edges[i]..<max(edges[i] + 1, edges[i + 1])))
                }
                return (option.score, pieces)
            }
        }
    }

    /// The box of the ink in `columns` (clamped to the raster); the columns'
    /// full height where they hold none.
    private func inkBox(columns: Range<Int>) -> BoundingBox {
        let left = min(columns.lowerBound, raster.width - 1), right = max(left, min(columns.upperBound, raster.width) - 1)
        var box: BoundingBox? = nil
        for x in left...right {
            guard let ink = columnInk[x] else { continue }
            let column = BoundingBox(minX: x, minY: ink.top, maxX: x, maxY: ink.bottom)
            if var found = box { found.include(column); box = found } else { box = column }
        }
        return box ?? BoundingBox(minX: left, minY: 0, maxX: right, maxY: raster.height - 1)
    }
}
