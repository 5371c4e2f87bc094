/// Whether the rules alone are sure of a picture's ink: one clear digit on
/// plain paper, all of its ink in their map. Then the ink locator is not
/// asked (step 7): it would only confirm the rules, and its forward pass
/// costs more than the rest of the pipeline.
///
/// Each condition is one a photo's troubles break (docs/how-it-works.md,
/// step 7): a sheet on a desk; a frame, ruled line or tight crop reaching
/// the digit at the edge; another large component (a line, a shadow's rim,
/// an object, a second digit); more than specks left out of the digit; a
/// blob; a marker stroke wider than the background's cells, of which the
/// rules kept only the rims.
enum CleanDrawing {
    /// How far from the picture's edge the digit's box stays, in pixels.
    static let edgeMargin = 3
    /// The share of the strong ink the digit's components hold at least.
    static let digitShare = 0.97
    /// The share of the digit's pixels that may lie on the ink's side of
    /// the midpoint between paper and ink, yet not next to the map.
    static let missedShare = 0.05

    /// A clean drawing's ink: the rules' strong ink, and the digit step 9
    /// finds in it (found here already, so that step 9 takes it as it is).
    struct Ink {
        let strong: InkMap
        let digit: ConnectedComponents.Digit
    }

    /// The ink of a clean drawing where the rules' ink `rules` (step 6's map)
    /// in `gray` (the analysis raster) is one clear digit, with `paper` step
    /// 2's region and `inkIsDark` step 4's polarity; nil where it is not.
    static func ink(_ gray: Raster, rules: InkMap?, paper: PaperRegion, inkIsDark: Bool) -> Ink? {
        guard paper.mask == nil, let rules else { return nil }
        let strong = InkExtractor.strong(rules)
        guard let digit = ConnectedComponents.digit(in: strong) else { return nil }
        let box = digit.box, width = gray.width, height = gray.height
        guard box.minX >= edgeMargin, box.minY >= edgeMargin,
              box.maxX < width - edgeMargin, box.maxY < height - edgeMargin else { return nil }
        guard digit.parts.allSatisfy({ $0.minX >= box.minX && $0.minY >= box.minY && $0.maxX <= box.maxX && $0.maxY <= box.maxY })
        else { return nil }
        let total = strong.values.reduce(0, +), kept = digit.map.values.reduce(0, +)
        guard kept >= digitShare * total, isStrokes(digit.map, box: box),
              missesNoInk(gray, digit: digit.map, box: box, inkIsDark: inkIsDark) else { return nil }
        return Ink(strong: strong, digit: digit)
    }

    /// Whether `digit`'s ink is pen strokes, not a blob: its stroke width,
    /// scaled as the normalization scales `box`, estimates the 28x28 field's,
    /// which `InkLayout` calls a blob above `blobWidth`. A filled shape, a
    /// smudge or an object is the locator's to judge.
    static func isStrokes(_ digit: InkMap, box: BoundingBox) -> Bool {
        let scale = Double(MNISTNormalizer.boxSide) / Double(max(box.width, box.height))
        return StrokeWidth.of(digit.indices, width: digit.width, height: digit.height) * scale <= InkLayout.blobWidth
    }

    /// Whether `digit`'s map, widened by a pixel, holds every pixel of
    /// `box` on the ink's side of the midpoint between the ink's grey (the
    /// map's median) and the paper's (the median of a ring two pixels
    /// around `box`), but for `missedShare` of the map's pixels.
    static func missesNoInk(_ gray: Raster, digit: InkMap, box: BoundingBox, inkIsDark: Bool) -> Bool {
        let width = gray.width
        var ink: [Double] = []
        ink.reserveCapacity(digit.count)
        for index in digit.indices { ink.append(gray.values[index]) }
        var ring: [Double] = []
        let (left, right, top, bottom) = (box.minX - 2, box.maxX + 2, box.minY - 2, box.maxY + 2)
        for x in left...right { ring.append(gray[x, top]); ring.append(gray[x, bottom]) }
        for y in (top + 1)..<bottom { ring.append(gray[left, y]); ring.append(gray[right, y]) }
        let midpoint = (RobustStatistics.lowerMedian(ink) + RobustStatistics.lowerMedian(ring)) / 2
        var near = [Bool](repeating: false, count: (box.width + 2) * (box.height + 2))
        let nearWidth = box.width + 2
        digit.forEachPixel { x, y, _ in
            let (cx, cy) = (x - box.minX + 1, y - box.minY + 1)
            for ny in (cy - 1)...(cy + 1) {
                for nx in (cx - 1)...(cx + 1) { near[ny * nearWidth + nx] = true }
            }
        }
        var missed = 0
        for y in box.minY...box.maxY {
            for x in box.minX...box.maxX where !near[(y - box.minY + 1) * nearWidth + x - box.minX + 1] {
                let value = gray.values[y * width + x]
                if inkIsDark ? value < midpoint : value > midpoint { missed += 1 }
            }
        }
        return Double(missed) <= missedShare * Double(digit.count)
    }
}
