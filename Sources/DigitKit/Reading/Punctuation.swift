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

    /// A minus sign: at least 1.5 times as wide as high and 0.2 of the line
    /// wide, its middle between a quarter and four fifths of the way down the line.
    static func isMinus(_ box: BoundingBox, lineTop: Int, lineBottom: Int) -> Bool {
        let line = Double(lineBottom - lineTop + 1)
        let middle = Double(box.minY + box.maxY) / 2
        return Double(box.width) >= Double(box.height) * 1.5 && Double(box.width) >= line * 0.2
            && middle >= Double(lineTop) + line * 0.25 && middle <= Double(lineTop) + line * 0.8
    }
}
