/// Something about the ink found that makes a single-digit answer doubtful,
/// so that the result is marked uncertain with the reason instead of
/// giving a confident answer to the wrong question.
public enum PreprocessingWarning: String, Sendable, CaseIterable {
    /// The ink holds two or more digit-sized groups side by side: a number
    /// such as "2026", which one 28x28 picture cannot stand for.
    case severalDigits = "several digits"
    /// The ink found is a blob, not pen strokes: its strokes are thicker in
    /// the 28x28 field than MNIST's thickest test digits' (the edge of a
    /// shadow, a smudge, a filled shape).
    case blob = "a blob, not strokes"
    /// The model found the ink the rules chose is not a digit, or doubted
    /// it, and the answer is its reading of the located ink alone (`SecondLook`).
    case locatedInkAlone = "read from the located ink alone"
    /// The located ink was a window around the digit (a meter's counter
    /// wheel), and the answer is the model's reading of what lies inside it
    /// (`WindowInk`, `SecondLook`).
    case insideWindow = "read inside a window"
    /// The model found the located ink read first is not a digit, and the
    /// answer is its reading of the other ink the locator saw (`SecondLook`).
    case otherLocatedInk = "read from other located ink"
}

/// Looks at how the digit's ink components lie (after specks are dropped).
enum InkLayout {
    /// Components closer than this share of the ink's height, left to
    /// right, belong to one group: the pieces of one digit drawn in several
    /// strokes overlap. 0: only overlapping columns join, since digits
    /// written close, a few hundredths of the height apart, are otherwise
    /// joined into one group and answered as one digit without a mark
    /// (docs/decisions.md, "Joining components").
    static let joiningGap = 0.0
    /// A group is digit-sized when it is at least this share of the ink's height.
    static let digitSized = 0.5

    /// Strokes wider than this in the 28x28 field (twice the area of its
    /// pixels at half intensity or more over their edge) make a blob. MNIST's
    /// test digits measure 2.6 in the median, 4.9 at the 99th percentile and
    /// 5.9 at the 99.9th.
    static let blobWidth = 6.0

    /// The warnings for the 28x28 field the model is given.
    static func warnings(field: Raster) -> [PreprocessingWarning] {
        let ink = field.values.indices.filter { field.values[$0] >= 128 }
        return StrokeWidth.of(ink, width: field.width, height: field.height) > blobWidth ? [.blob] : []
    }

    /// The warnings for components with boxes `parts`.
    static func warnings(parts: [BoundingBox]) -> [PreprocessingWarning] {
        guard parts.count >= 2 else { return [] }
        let top = parts.map(\.minY).min()!, bottom = parts.map(\.maxY).max()!
        let height = Double(bottom - top + 1)
        let gap = Int((height * joiningGap).rounded(.up))
        // Groups of components that overlap or nearly touch along x.
        var groups: [BoundingBox] = []
        for part in parts.sorted(by: { $0.minX < $1.minX }) {
            if let last = groups.last, part.minX <= last.maxX + gap {
                groups[groups.count - 1].include(part)
            } else {
                groups.append(part)
            }
        }
        let digitSizedGroups = groups.filter { Double($0.height) >= height * digitSized }
        return digitSizedGroups.count >= 2 ? [.severalDigits] : []
    }
}
