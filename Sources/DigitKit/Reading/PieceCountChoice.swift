#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// How many digits each glyph holds: for each glyph, the number of pieces
/// whose best cut scores highest, or, when the number's length is given,
/// the counts that add up to it with the highest total score (a knapsack
/// over the glyphs).
struct PieceCountChoice {
    /// The chosen number of pieces of each glyph.
    let pieceCounts: [Int]
    /// Whether a different count for some glyph came within
    /// NumberReader.ambiguityRatio of the chosen one, or the length asked
    /// for could not be met.
    let ambiguous: Bool

    /// `options[g][n - 1]`: the best cut of glyph g into n pieces and its
    /// score. A glyph without any (none of its pieces held ink the digit
    /// model could read) gets 0 pieces rather than stopping the reading.
    init(options: [[(score: Double, pieces: [GlyphSegmentation.Piece])?]], length: Int?) {
        let margin = log(NumberReader.ambiguityRatio)
        let free = options.map(Self.bestCount)
        guard let length, let constrained = Self.constrained(options, length: length) else {
            pieceCounts = free
            ambiguous = length != nil || zip(options, free).contains { glyph, chosen in
                guard chosen > 0, let best = glyph[chosen - 1] else { return false }
                return glyph.indices.contains { $0 + 1 != chosen && glyph[$0].map { $0.score > best.score - margin } ?? false }
            }
            return
        }
        pieceCounts = constrained.counts
        ambiguous = constrained.runnerUp.map { $0 > constrained.score - margin } ?? false
    }

    /// The number of pieces of `glyph`'s best-scoring option; 0 when it has
    /// none. A score that is not a number never wins.
    static func bestCount(_ glyph: [(score: Double, pieces: [GlyphSegmentation.Piece])?]) -> Int {
        var best: (count: Int, score: Double)? = nil
        for (index, option) in glyph.enumerated() {
            guard let option else { continue }
            if best.map({ option.score > $0.score || $0.score.isNaN }) ?? true { best = (index + 1, option.score) }
        }
        return best?.count ?? 0
    }

    /// The counts adding up to `length` with the best total score, that
    /// score, and the best total of any other such counts.
    private static func constrained(_ options: [[(score: Double, pieces: [GlyphSegmentation.Piece])?]], length: Int)
        -> (counts: [Int], score: Double, runnerUp: Double?)?
    {
        // table[t]: the best (and second best) totals for t digits over the glyphs so far.
        struct Entry { var score: Double; var counts: [Int]; var runnerUp: Double? }
        var table: [Int: Entry] = [0: Entry(score: 0, counts: [], runnerUp: nil)]
        for glyph in options {
            guard glyph.contains(where: { $0 != nil }) else {
                table = table.mapValues { Entry(score: $0.score, counts: $0.counts + [0], runnerUp: $0.runnerUp) }
                continue
            }
            var next: [Int: Entry] = [:]
            for (total, entry) in table {
                for (index, option) in glyph.enumerated() {
                    guard let option, total + index + 1 <= length else { continue }
                    let score = entry.score + option.score
                    let runner = entry.runnerUp.map { $0 + option.score }
                    let key = total + index + 1
                    if var existing = next[key] {
                        if score > existing.score {
                            existing.runnerUp = [existing.score, runner ?? -.infinity, existing.runnerUp ?? -.infinity].max()
                            existing.score = score
                            existing.counts = entry.counts + [index + 1]
                        } else {
                            existing.runnerUp = [existing.runnerUp ?? -.infinity, score].max()
                        }
                        next[key] = existing
                    } else {
                        next[key] = Entry(score: score, counts: entry.counts + [index + 1], runnerUp: runner)
                    }
                }
            }
            table = next
        }
        return table[length].map { ($0.counts, $0.score, $0.runnerUp.flatMap { $0.isFinite ? $0 : nil }) }
    }
}
