/// Ink the reader left out that a person would read: a 1 whose stroke a
/// shadow or a grid line broke, so that only a short piece of it stood out,
/// or that was too faint beside bold digits (`NumberLayout.faintestDigit`).
/// Without it the reading lacks a digit ("116" read "16") at full
/// confidence; with it, the reading warns (`ReadingWarning.unreadInk`).
extension NumberLayout {
    /// A left-out glyph counts when its longest stroke is at least this
    /// share of the line high: a dotted page's dots, gathered into one tall
    /// glyph as parts of each other, do not.
    static let unreadStroke = 0.25
    /// ...and it is tall (not `Punctuation.isSmall`) or holds at least this
    /// share of the median digit's ink: a speck does not.
    static let unreadInk = 0.1

    /// The glyphs of `ink` that are neither `digits` nor `marks` but lie
    /// beside the digits (within a line's height of the first or last, over
    /// no digit's columns: a digit's own stray piece is not another
    /// character), at least half of them within the line's rows, with some
    /// strong ink (the digit model's; a glyph of weak ink is a JPEG's edge
    /// or a shadow). A dash before the first digit that is no minus by its
    /// place (`Punctuation.isMinus`) counts too, however flat: a sign the
    /// reading would otherwise lose without a word.
    static func unread(_ ink: NumberInk, digits: [Int], marks: [Int]) -> [Int] {
        guard let first = digits.first, let last = digits.last else { return [] }
        let glyphs = ink.glyphs, line = Double(ink.lineHeight)
        let medianArea = Double(digits.map { glyphs[$0].area }.sorted()[digits.count / 2])
        let left = glyphs[first].box.minX - ink.lineHeight, right = glyphs[last].box.maxX + ink.lineHeight
        return glyphs.indices.filter { index in
            let glyph = glyphs[index], box = glyph.box
            let dash = box.maxX < glyphs[first].box.minX && Punctuation.isDash(box, lineHeight: ink.lineHeight)
            guard !digits.contains(index), !marks.contains(index), glyph.strongArea > 0,
                  Double(glyph.tallestComponent) >= line * unreadStroke || dash,
                  !Punctuation.isSmall(glyph, lineHeight: ink.lineHeight) || Double(glyph.area) >= medianArea * unreadInk,
                  box.maxX >= left, box.minX <= right,
                  !digits.contains(where: { overlap(glyphs[$0].box, box) > 0 }) else { return false }
            let rowsOnLine = min(box.maxY, ink.lineBottom) - max(box.minY, ink.lineTop) + 1
            return rowsOnLine * 2 >= box.height
        }
    }
}
