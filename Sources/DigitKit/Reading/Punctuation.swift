/// Tells a decimal point and a leading minus sign from specks by size, shape
/// and place on the line, as a reader does: a point is a small blob sitting
/// on the baseline between digits; a minus a flat bar at mid-height before
/// the first digit. Neither is shown to the model, which knows only digits.
enum Punctuation {
    /// A glyph shorter than this share of the line is not a digit.
    static let smallerThanDigit = 0.4

    /// Whether `glyph` is too small to be a digit.
    static func isSmall(_ glyph: NumberInk.Glyph, lineHeight: Int) -> Bool {
        Double(glyph.box.height) < Double(lineHeight) * smallerThanDigit
    }

    /// A decimal point: at least 0.08 of the line wide and high (a pen's
    /// dot, not dust), at most 0.45 wide and 0.35 high, roughly round (at
    /// least 0.6 as wide as high: a chip of a stroke, twice as high as
    /// wide, beside a 9 had made "992" read "9.92"), its bottom within the
    /// lowest quarter of the line and its top below the middle.
    static func isDecimalPoint(_ box: BoundingBox, lineTop: Int, lineBottom: Int) -> Bool {
        let line = Double(lineBottom - lineTop + 1)
        let aspect = Double(box.width) / Double(box.height)
        return Double(min(box.width, box.height)) >= line * 0.08
            && Double(box.width) <= line * 0.45 && Double(box.height) <= line * 0.35
            && aspect >= 0.6 && aspect <= 2.5
            && Double(box.maxY) >= Double(lineBottom) - line * 0.25
            && Double(box.minY) >= Double(lineTop) + line * 0.5
    }

    /// A point's strongest ink is at least this share of the digits'
    /// (the median of their strongest pixels): one pen makes both. A
    /// dotted page's printed dots and the chips of a ruled line that sit on
    /// the baseline between digits were at 0.38-0.64 of the digits' ink,
    /// pen and printed points at 0.97 or more (docs/decisions.md, "A
    /// point as dark as the digits").
    static let pointInk = 0.8

    /// Whether `glyph`'s ink is as dark as a point the digits' pen made
    /// (`pointInk`), `digitPeak` the median of the digit glyphs' strongest ink.
    static func isPenDark(_ glyph: NumberInk.Glyph, digitPeak: Double) -> Bool {
        glyph.peak >= digitPeak * pointInk
    }

    /// A dash: at least 1.5 times as wide as high and 0.2 of the line wide.
    static func isDash(_ box: BoundingBox, lineHeight: Int) -> Bool {
        Double(box.width) >= Double(box.height) * 1.5 && Double(box.width) >= Double(lineHeight) * 0.2
    }

    /// A minus sign: a dash whose middle lies between 0.15 and 0.85 of the
    /// way down the line. Handwritten minus signs sit high as often as low:
    /// one at 0.22 beside a 3 was dropped under the quarter this asked for
    /// before, and "-3" read "3" (docs/decisions.md, "A minus sign's place").
    static func isMinus(_ box: BoundingBox, lineTop: Int, lineBottom: Int) -> Bool {
        let line = Double(lineBottom - lineTop + 1)
        let middle = Double(box.minY + box.maxY) / 2
        return isDash(box, lineHeight: lineBottom - lineTop + 1)
            && middle >= Double(lineTop) + line * 0.15 && middle <= Double(lineTop) + line * 0.85
    }
}
