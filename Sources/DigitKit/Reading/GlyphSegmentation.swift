#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// Recognition-driven segmentation of one glyph: every way of cutting it at
/// its candidate columns into pieces of a digit's width is scored by the
/// model's probabilities for the pieces, and the best cut into each number
/// of pieces is kept (dynamic programming over the cuts, left to right).
struct GlyphSegmentation {
    /// A piece of a glyph and what the model read in it.
    struct Piece {
        let digit: Int
        let probability: Double
        /// The model's probability that the piece is no digit at all (0
        /// for a model without that class, and for pieces a line model read).
        var notADigit = 0.0
        /// The piece's ink box in the glyph raster's coordinates.
        let box: BoundingBox
    }

    /// A piece no narrower than this share of the line height (a thin 1 is
    /// about 0.15)...
    static let narrowest = 0.08
    /// ...and, unless it is the whole glyph, no wider than this.
    static let widest = 1.5
    /// The log-probability each piece beyond the first costs: cutting a
    /// digit in two must buy more than this factor of e in probability.
    static let cutCost = 1.0
    /// How wide each digit is for its height (ink box width / height) in
    /// MNIST's training set, digits 0-9: the median and a robust standard
    /// deviation (1.4826 times the median absolute deviation). A piece read
    /// as digit d far from d's usual shape is likelier two digits read as
    /// one, or a part of one digit: its score is lowered by the Gaussian
    /// log-likelihood of its shape, ((aspect - median) / deviation)^2 / 2.
    static let aspect: [(median: Double, deviation: Double)] = [
        (0.90, 0.15), (0.40, 0.15), (0.95, 0.15), (0.80, 0.15), (0.80, 0.15),
        (0.95, 0.22), (0.75, 0.15), (0.80, 0.15), (0.80, 0.15), (0.70, 0.15),
    ]
    /// The most a piece's shape can cost, so that one odd digit does not
    /// outweigh the model altogether.
    static let maximumShapeCost = 8.0

    /// The log-probability a piece read as `digit` costs for its shape.
    static func shapeCost(_ box: BoundingBox, digit: Int) -> Double {
        let z = (Double(box.width) / Double(box.height) - aspect[digit].median) / aspect[digit].deviation
        return min(maximumShapeCost, z * z / 2)
    }

    /// Whether a piece read as `digit` is more than 2.5 deviations wider
    /// than MNIST's median for that digit: two touching digits read as one?
    static func isUnusuallyWide(_ box: BoundingBox, digit: Int) -> Bool {
        Double(box.width) / Double(box.height) > aspect[digit].median + 2.5 * aspect[digit].deviation
    }

    /// A glyph at most this much wider than high (or than the line is
    /// high) is read as one digit: nearly all of MNIST's digits are; a
    /// lower limit cut wide single digits in two, which cost more numbers
    /// than it saved (docs/decisions.md, "Widest single digit").
    static let widestSingle = 1.7

    /// How far from its valley column a cut may bend, as a share of the
    /// line height: bending lets a cut pass around a stroke that leans
    /// into the next digit (docs/decisions.md, "Cut reach").
    static let cutReach = 0.3

    /// Whether a glyph's ink `raster` may hold several digits: it is more
    /// than `widest` times as wide as high (or as the line is high; by
    /// default wider than one digit can be), or (`mustCut`) the number is
    /// known to hold more digits than there are glyphs, so even a glyph of
    /// one digit's width may hold two. LineRun asks with its own, lower bound.
    static func mayHoldSeveral(_ raster: Raster, lineHeight: Int, mustCut: Bool, widest: Double = widestSingle) -> Bool {
        mustCut || Double(raster.width) > Double(max(raster.height, lineHeight)) * widest
    }

    /// Column boundaries: 0, the candidate cuts' valley columns, the raster's width.
    let boundaries: [Int]
    /// The pieces worth asking the model about: boundary indices i < j and
    /// the piece's tensor and box.
    let candidates: [(from: Int, to: Int, piece: PieceTensor)]

    /// The candidate pieces of `raster`, a glyph's ink on a line `lineHeight`
    /// high; with `cuts` false, only the whole glyph (the plain
    /// connected-component split, for comparison). `mustCut`: the number is
    /// known to hold more digits than there are glyphs, so even a glyph of
    /// one digit's width may hold two.
    init(_ raster: Raster, lineHeight: Int, cuts: Bool = true, mustCut: Bool = false) {
        // A glyph no wider than one digit can be is one digit: the model reads
        // halves of a digit as confidently as whole ones, so it is not asked.
        let oneDigit = !cuts || !Self.mayHoldSeveral(raster, lineHeight: lineHeight, mustCut: mustCut)
        let columns = oneDigit ? [] : CutCandidates.columns(in: raster, lineHeight: lineHeight)
        boundaries = [0] + columns + [raster.width]
        // Each valley's cut bends around the strokes within `reach` columns of it, never crossing the one before.
        let reach = Int((Double(lineHeight) * Self.cutReach).rounded())
        var paths = [CutPath.straight(at: 0, height: raster.height)]
        for column in columns {
            paths.append(CutPath.leastInk(in: raster, near: column, reach: reach).notLeft(of: paths[paths.count - 1]))
        }
        paths.append(CutPath.straight(at: raster.width, height: raster.height))
        let narrowest = Double(lineHeight) * Self.narrowest, widest = Double(lineHeight) * Self.widest
        var candidates: [(Int, Int, PieceTensor)] = []
        for i in 0..<(boundaries.count - 1) {
            for j in (i + 1)..<boundaries.count {
                let width = Double(boundaries[j] - boundaries[i])
                // The whole glyph is always a candidate, so that every glyph has a reading.
                let whole = i == 0 && j == boundaries.count - 1
                guard whole || (width >= narrowest && width <= widest),
                      let piece = PieceTensor(raster, between: paths[i], and: paths[j]) else { continue }
                candidates.append((i, j, piece))
            }
        }
        self.candidates = candidates
    }

    /// For n = 1, 2, ... pieces (index n - 1): the best cut into n pieces and
    /// its score (log-probability less the cut cost), given the model's
    /// prediction for each candidate, in order.
    func bestCuts(_ predictions: ArraySlice<Prediction>) -> [(score: Double, pieces: [Piece])?] {
        let last = boundaries.count - 1
        var pieceAt: [Int: [(from: Int, piece: Piece)]] = [:]
        for (candidate, prediction) in zip(candidates, predictions) {
            let piece = Piece(digit: prediction.digit, probability: prediction.confidence, notADigit: prediction.notADigit,
                              box: candidate.piece.box)
            pieceAt[candidate.to, default: []].append((candidate.from, piece))
        }
        // best[j][n]: the best way to cover columns up to boundary j with n pieces.
        var best = [[(score: Double, pieces: [Piece])?]](repeating: [nil], count: boundaries.count)
        best[0] = [(0, [])]
        for j in 1...last {
            for (from, piece) in pieceAt[j] ?? [] {
                for (n, before) in best[from].enumerated() {
                    guard let before else { continue }
                    let score = before.score + log(max(piece.probability, 1e-12)) - Self.shapeCost(piece.box, digit: piece.digit)
                    while best[j].count <= n + 1 { best[j].append(nil) }
                    if best[j][n + 1].map({ score > $0.score }) ?? true {
                        best[j][n + 1] = (score, before.pieces + [piece])
                    }
                }
            }
        }
        return best[last].dropFirst().enumerated().map { n, option in
            option.map { ($0.score - Double(n) * Self.cutCost, $0.pieces) }
        }
    }
}
