/// The located ink apart from the digit read first: `SecondLook`'s last
/// look (docs/decisions.md, "Other located ink"). On a desk the locator
/// marks a card's edge or a pen's tip beside a note as well as the digit on
/// it, and step 9 reads the heavier of the two first.
enum OtherLocatedInk {
    /// Two boxes are apart when a gap of this share of the larger one's
    /// longer side lies between them, across or down: half a digit, more
    /// than lies between a letter's or a symbol's strokes, less than the
    /// paper between a note's digit and the card beside the note.
    static let apartGap = 0.5

    /// The 28x28 tensor of the digit in `located` (the locator's ink at
    /// analysis size) without its components that reach into `read`, the
    /// box of the digit read first, through steps 9 and 10 (not recorded);
    /// nil when none lies apart from `read` (`isApart`), or the locator is
    /// less sure of it (its map's peak) than of the ink in `read`: it marks a
    /// pen or a card's edge beside a digit less surely than the digit, and a
    /// letter more surely than a pen beside it.
    static func tensor(in located: InkMap, apartFrom read: BoundingBox) -> DigitTensor? {
        var unrecorded = PipelineAnalysis()
        guard let (digit, field) = Preprocessor.digitAndField(of: without(read, in: located), located: true, into: &unrecorded),
              let field, isApart(digit.box, from: read),
              located.peak(in: digit.box) >= located.peak(in: read) else { return nil }
        return DigitTensor(intensities: field.values)
    }

    /// Whether `box` lies apart from `other` (`apartGap`): the empty
    /// columns or rows between them, one fewer than their `gap(to:)`.
    static func isApart(_ box: BoundingBox, from other: BoundingBox) -> Bool {
        let side = max(box.width, box.height, other.width, other.height)
        return Double(box.gap(to: other) - 1) >= apartGap * Double(side)
    }

    /// `map` without the components that have a pixel inside `box`, taken
    /// whole: a piece of one cut by the box would be read as ink of its own.
    static func without(_ box: BoundingBox, in map: InkMap) -> InkMap {
        let (labels, components) = ConnectedComponents.label(map)
        var reaches = [Bool](repeating: false, count: components.count)
        var k = 0
        map.forEachPixel { x, y, _ in
            if box.contains(x: x, y: y) { reaches[Int(labels[k]) - 1] = true }
            k += 1
        }
        return map.filtered { !reaches[Int(labels[$0]) - 1] }
    }
}
