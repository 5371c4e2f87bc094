/// A digit seen through a window: a meter reader's crop of one counter
/// wheel or LCD cell, a dark window in a light plate with a light digit in
/// it (or the other way round). The locator may take the window itself for
/// the ink, with the digit in it or as a hole, and the model then rightly
/// finds that ink "not a digit". This finds such a window in the located
/// ink and the digit inside it, for a second look (`SecondLook`).
///
/// A window is located ink that is solid (fills `leastFill` of its box, in
/// one piece or several: a digit across the window may cut the locator's
/// map of it in two) and square-cornered (ink in all four corners: a
/// digit's strokes leave at least two corners of its box empty). Inside its
/// box the picture must be two clear levels (`leastSeparability`), window
/// and digit; the digit is the side of Otsu's split that the window's
/// pixels in the corners are not on, in the groups lying mostly away from
/// the box's edges, at full resolution: the locator's coarse map says
/// where, the picture says which pixels. Only taken after the model's
/// "not a digit" or doubt, so most pictures never pay for it.
enum WindowInk {
    /// A window fills at least this share of its box.
    static let leastFill = 0.4
    /// A corner of the box is a square of this share of its shorter side...
    static let cornerShare = 0.15
    /// ...at least this share of it the window's ink.
    static let cornerFill = 0.25
    /// Otsu's split of the box explains at least this share of its grey
    /// levels' variance: a window and a digit, not grain or a blank note.
    static let leastSeparability = 0.75
    /// The band along the box's edges, as a share of its shorter side, that
    /// a plate's rim lies in.
    static let edgeBand = 0.1
    /// One of the digit's groups is at least this share of the window's
    /// height: a digit, not specks.
    static let leastDigitHeight = 0.35
    /// A window is at least this many pixels wide and high.
    static let smallestSide = 12

    /// The digit's ink inside the window that `located` (the located ink at
    /// analysis size) makes of `gray` (the picture at analysis size, grey
    /// levels); nil when the located ink is no window or nothing lies inside.
    static func digit(in located: InkMap, gray: Raster) -> InkMap? {
        precondition(located.width == gray.width && located.height == gray.height)
        guard let box = located.boundingBox, box.width >= smallestSide, box.height >= smallestSide,
              Double(located.count) >= leastFill * Double(box.width * box.height) else { return nil }
        let window = located.cropped(box, scale: 1).values.map { $0 > 0 }
        let corners = cornerIndices(width: box.width, height: box.height)
        guard corners.allSatisfy({ corner in Double(corner.filter { window[$0] }.count) >= cornerFill * Double(corner.count) })
        else { return nil }
        return inside(box, window: corners.flatMap { $0 }.filter { window[$0] }, gray: gray)
    }

    /// The indices (in a box of this size, row-major) of each of its four
    /// corner squares, `cornerShare` of its shorter side.
    static func cornerIndices(width: Int, height: Int) -> [[Int]] {
        let side = max(1, Int(cornerShare * Double(min(width, height))))
        return [(0, 0), (width - side, 0), (0, height - side), (width - side, height - side)].map { corner in
            (corner.1..<(corner.1 + side)).flatMap { y in (corner.0..<(corner.0 + side)).map { x in y * width + x } }
        }
    }

    /// The pixels of `box` on the other side of Otsu's split from the
    /// `window` pixels given (the window's ink in the box's corners), in
    /// 8-connected groups mostly away from the box's edges, as ink: 1 at the
    /// digit's median level, less towards the window's. Nil when the box is
    /// not two clear levels or no group is tall enough for a digit.
    static func inside(_ box: BoundingBox, window: [Int], gray: Raster) -> InkMap? {
        let width = box.width, height = box.height
        var levels = [Double](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width { levels[y * width + x] = gray.values[(box.minY + y) * gray.width + box.minX + x] }
        }
        let (split, separability) = OtsuLevel.split(OtsuLevel.histogram(levels))
        guard separability >= leastSeparability else { return nil }
        // The split's upper class, as `OtsuLevel` counts it: a level above the split.
        let upper = levels.map { OtsuLevel.bin($0) > split }
        let windowIsDark = 2 * window.filter { upper[$0] }.count < window.count
        let digitSide = levels.indices.filter { upper[$0] == windowIsDark }
        let candidate = InkMap(width: width, height: height, indices: digitSide, values: Array(repeating: 1, count: digitSide.count))
        let (labels, components) = ConnectedComponents.label(candidate)
        // A group is the digit's when most of its pixels lie away from the
        // band along the box's edges: a plate's rim inside the box lies in
        // it, while a counter's digit may be cut by the window's edge.
        let band = Int(edgeBand * Double(min(width, height)))
        var inner = [Int](repeating: 0, count: components.count)
        for k in digitSide.indices {
            let x = digitSide[k] % width, y = digitSide[k] / width
            if x >= band, y >= band, x < width - band, y < height - band { inner[Int(labels[k]) - 1] += 1 }
        }
        let isDigits = components.indices.map { 2 * inner[$0] > components[$0].area }
        guard components.indices.contains(where: { isDigits[$0] && Double(components[$0].box.height) >= leastDigitHeight * Double(height) })
        else { return nil }
        let kept = digitSide.indices.filter { isDigits[Int(labels[$0]) - 1] }
        let background = RobustStatistics.lowerMedian(levels.indices.filter { upper[$0] != windowIsDark }.map { levels[$0] })
        let ink = RobustStatistics.lowerMedian(kept.map { levels[digitSide[$0]] })
        let span = max(1, abs(ink - background))
        var indices: [Int] = [], values: [Double] = []
        for k in kept {
            let index = digitSide[k]
            indices.append((box.minY + index / width) * gray.width + box.minX + index % width)
            values.append(min(1, max(0.1, abs(levels[index] - background) / span)))
        }
        return InkMap(width: gray.width, height: gray.height, indices: indices, values: values)
    }
}
