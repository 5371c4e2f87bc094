/// Which glyphs of a number are digits and which are a decimal point or a
/// minus sign (Punctuation): a minus only before the first digit, one
/// decimal point only, between digits; small glyphs that are neither are
/// specks and ignored.
struct NumberLayout {
    /// Indices of the glyphs that hold digits, left to right.
    let digitGlyphs: [Int]
    /// The glyphs read as a decimal point or a minus sign.
    let marks: [(glyph: Int, kind: NumberReading.Character.Kind)]
    /// Whether more decimal points were found than a number has (one was kept).
    let extraMarks: Bool
    /// Glyphs beside the digits, on their line and of a digit's stroke,
    /// that are neither digits nor marks (`unread(_:digits:marks:)`): the
    /// reading may lack a character.
    let unread: [Int]

    /// A tall glyph with less ink than this share of the inkiest tall
    /// glyph's is a faint stroke or dust, not a digit (a 1 has about a third
    /// of a 0's ink). The inkiest, not the median: in "16" with a stray
    /// stroke the median is the 1, and a sliver has more than an eighth of
    /// a 1's ink (0.18 drops real 1s beside bold digits).
    static let faintestDigit = 0.12

    init(_ ink: NumberInk) {
        let glyphs = ink.glyphs
        // A glyph of weak ink only (a JPEG's faint edge column, a shadow) is
        // no digit, however tall: the digit model, shown strong ink only,
        // would find nothing in it.
        let tall = glyphs.indices.filter {
            !Punctuation.isSmall(glyphs[$0], lineHeight: ink.lineHeight) && glyphs[$0].strongArea > 0
        }
        // Faint strokes and dust as tall as a digit but with a sliver of its ink.
        let inkiestArea = tall.map { glyphs[$0].area }.max() ?? 0
        let digits = tall.filter { Double(glyphs[$0].area) >= Double(inkiestArea) * Self.faintestDigit }
        var marks: [(Int, NumberReading.Character.Kind)] = []
        var points = 0
        if let first = digits.first, let last = digits.last {
            let digitPeak = digits.map { glyphs[$0].peak }.sorted()[digits.count / 2]
            for index in glyphs.indices where Punctuation.isSmall(glyphs[index], lineHeight: ink.lineHeight) {
                let box = glyphs[index].box
                let beforeFirst = box.maxX < glyphs[first].box.minX
                let between = box.minX > glyphs[first].box.maxX && box.maxX < glyphs[last].box.minX
                if beforeFirst && marks.isEmpty && Punctuation.isMinus(box, lineTop: ink.lineTop, lineBottom: ink.lineBottom) {
                    marks.append((index, .minus))
                } else if between && Punctuation.isDecimalPoint(box, lineTop: ink.lineTop, lineBottom: ink.lineBottom)
                            && Punctuation.isPenDark(glyphs[index], digitPeak: digitPeak) {
                    points += 1
                    if points == 1 { marks.append((index, .decimalPoint)) }
                }
            }
        }
        self.digitGlyphs = digits
        self.marks = marks
        self.extraMarks = points > 1
        self.unread = Self.unread(ink, digits: digits, marks: marks.map(\.0))
    }
}
