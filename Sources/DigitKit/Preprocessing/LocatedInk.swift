/// Steps 7 and 8 of the MNIST pipeline, the learned ones (`InkLocatorStage`,
/// `SubjectInkStage`): where the ink locator (`InkLocator`) sees the
/// subject's ink, and what that makes of the rules' ink map. The rules
/// measure ink at full resolution but cannot tell a digit from a ruled line,
/// a frame or a shadow's edge; the locator can, at a coarser scale. So the
/// locator decides which ink is the subject and whether there is any; the
/// rules' ink is kept where the two agree.
struct LocatedInk {
    /// The locator's probabilities enlarged to the analysis raster, 0-1.
    let probabilities: Raster
    /// The highest of them.
    let peak: Double
    /// How many of the locator's own pixels (before enlarging) are at or above `inkLevel`.
    var inkPixels = Int.max
    /// How many analysis pixels one of the locator's pixels spans: a stroke
    /// thinner than that is at most a faint trace in the locator's picture.
    var pixelSize = 1.0
    /// The located ink as an ink map: the pixels at or above `inkLevel`,
    /// valued by their probability stretched from `keepLevel` to 1. Made
    /// once, in one pass: the box, the overlap and a second look all start from it.
    let inkMap: InkMap

    init(probabilities: Raster, peak: Double, inkPixels: Int = Int.max, pixelSize: Double = 1.0) {
        self.probabilities = probabilities
        self.peak = peak
        self.inkPixels = inkPixels
        self.pixelSize = pixelSize
        self.inkMap = Self.inkMap(of: probabilities)
    }

    /// The locator's pictures have this many pixels on their longer side
    /// (`closerSide` on a second look).
    static let side = 128
    /// A pixel at or above this probability is the subject's ink.
    static let inkLevel = 0.5
    /// The locator sees the subject when its map peaks at least this high...
    static let seenPeak = 0.7
    /// ...and at least this many of its pixels are ink: on blank scenes of
    /// the training generator's check set the locator's noise stays under
    /// both more often than a subject's ink does. The 5 pixels first chosen
    /// there at 96 px, scaled by the area to 128 px (Models/README.md,
    /// `Models/locator_seen.py`).
    static let seenPixels = 9
    /// Rule ink is kept where the locator's probability is at least this:
    /// lower than `inkLevel`, so that a stroke's anti-aliased rim, which
    /// the coarser locator blurs, stays with the stroke.
    static let keepLevel = 0.25
    /// The rules' ink (kept where the locator agrees) stands only when it
    /// overlaps the located ink at least this much (intersection over union
    /// of the two); less, and the rules took something else for the ink (the
    /// paper, with the polarity wrong) or missed it (a faint pen in shadow).
    static let agreement = 0.3

    /// The side of the locator's second, closer look (the most the bridge
    /// takes), where it saw nothing at `side` but a fine pen may be there
    /// (`looksCloser(for:)`).
    static let closerSide = 256

    /// Runs `locator` on `gray` (the analysis raster), brought to `side`
    /// pixels on its longer side and padded with its edge to a square, and
    /// enlarges the answer back to `gray`'s size.
    static func locate(_ gray: Raster, with locator: InkLocator, side: Int = Self.side) throws(DigitError) -> LocatedInk {
        let scale = Double(side) / Double(max(gray.width, gray.height))
        let width = min(side, max(1, Int((Double(gray.width) * scale).rounded())))
        let height = min(side, max(1, Int((Double(gray.height) * scale).rounded())))
        let small = scale < 1
            ? AreaResampler.resize(gray, targetWidth: width, targetHeight: height)
            : BilinearResampler.resize(gray, targetWidth: width, targetHeight: height)
        let padded = paddedWithEdge(small, side: side)
        let map = try locator.probabilities(for: padded)
        var content = [Double](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width { content[y * width + x] = map[x, y] }
        }
        let located = Raster(width: width, height: height, values: content)
        let enlarged = located.width == gray.width && located.height == gray.height
            ? located : BilinearResampler.resize(located, targetWidth: gray.width, targetHeight: gray.height)
        return LocatedInk(probabilities: enlarged, peak: content.max() ?? 0,
                          inkPixels: content.reduce(0) { $0 + ($1 >= inkLevel ? 1 : 0) }, pixelSize: 1 / scale)
    }

    /// `raster` (at most `side` on each side) padded on the right and
    /// bottom with copies of its edge pixels to a square of `side`: the
    /// locator was trained on pictures padded so.
    static func paddedWithEdge(_ raster: Raster, side: Int = Self.side) -> Raster {
        let width = side, height = side
        guard width != raster.width || height != raster.height else { return raster }
        var values = [Double](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width { values[y * width + x] = raster[min(x, raster.width - 1), min(y, raster.height - 1)] }
        }
        return Raster(width: width, height: height, values: values)
    }

    /// Whether the locator sees any of the subject's ink.
    var seesInk: Bool { peak >= Self.seenPeak && inkPixels >= Self.seenPixels }

    /// Whether a look at `closerSide` could show a fine pen this one
    /// missed: it sees no ink, the picture is larger than `closerSide` (so
    /// the closer look's pixels are finer), and either the rules' ink
    /// (`rules`, strong pixels only) has strokes finer than one of this
    /// look's pixels, or the rules found none and this look saw a trace
    /// too small to count (its peak at least `seenPeak`, too few pixels).
    /// The closer look's `seesInk` asks for the same nine pixels, a quarter
    /// of the area they are at `side` (docs/decisions.md).
    func looksCloser(for rules: InkMap?) -> Bool {
        guard !seesInk, closerLookIsFiner else { return false }
        guard let rules else { return peak >= Self.seenPeak }
        return StrokeWidth.of(rules.indices, width: rules.width, height: rules.height) < pixelSize
    }

    /// Whether a look at `closerSide` sees the picture in finer pixels than
    /// this one: the picture is larger than `closerSide`.
    var closerLookIsFiner: Bool { pixelSize * Double(Self.side) > Double(Self.closerSide) }

    /// This look and `other` (of the same picture) together: the higher
    /// probability at each pixel, the finer pixels.
    func union(_ other: LocatedInk) -> LocatedInk {
        precondition(probabilities.width == other.probabilities.width && probabilities.height == other.probabilities.height)
        let values = zip(probabilities.values, other.probabilities.values).map(max)
        return LocatedInk(probabilities: Raster(width: probabilities.width, height: probabilities.height, values: values),
                          peak: max(peak, other.peak), inkPixels: max(inkPixels, other.inkPixels),
                          pixelSize: min(pixelSize, other.pixelSize))
    }

    /// `probabilities`' pixels at or above `inkLevel` as an ink map (`inkMap`).
    static func inkMap(of probabilities: Raster) -> InkMap {
        var indices: [Int] = [], values: [Double] = []
        probabilities.values.withUnsafeBufferPointer { p in
            for i in p.indices where p[i] >= inkLevel {
                indices.append(i)
                values.append(min(1, max(0.1, (p[i] - keepLevel) / (1 - keepLevel))))
            }
        }
        return InkMap(width: probabilities.width, height: probabilities.height, indices: indices, values: values)
    }

    /// `rules` with only what the locator agrees is the subject's: each
    /// 8-connected component that touches the located ink is kept whole,
    /// unless it reaches far beyond the located ink's box (a ruled line or
    /// a frame through the digit: then only its pixels at `keepLevel` or
    /// above stay); components that do not touch it are dropped. Whole,
    /// because the coarser locator may miss a stroke's end or a thin joint
    /// that the rules measured.
    ///
    /// The map is first widened by one of the locator's pixels (a maximum
    /// over that radius): the rules measure ink at a finer scale than the
    /// locator, and a thin stroke's exact place is theirs to say.
    func kept(_ rules: InkMap) -> InkMap {
        guard var box = locatedBox else { return InkMap(width: rules.width, height: rules.height, indices: [], values: []) }
        let radius = widening
        let near = nearInk
        box = BoundingBox(minX: box.minX - radius, minY: box.minY - radius, maxX: box.maxX + radius, maxY: box.maxY + radius)
        let (labels, components) = ConnectedComponents.label(rules)
        var touches = [Bool](repeating: false, count: components.count)
        for k in 0..<rules.count where near[rules.indices[k]] {
            touches[Int(labels[k]) - 1] = true
        }
        let reach = Self.reach
        let whole = components.map { component in
            Double(component.box.width) <= reach * Double(box.width) && Double(component.box.height) <= reach * Double(box.height)
        }
        return rules.filtered { k in
            let component = Int(labels[k]) - 1
            guard touches[component] else { return false }
            return whole[component] || near[rules.indices[k]]
        }
    }

    /// One of the locator's pixels in analysis pixels, rounded up; 0 when
    /// the locator saw the picture at its own size or larger.
    var widening: Int { pixelSize > 1 ? Int(pixelSize.rounded(.up)) : 0 }

    /// Whether each pixel lies within `widening` pixels (a square) of one
    /// the locator gives at least `keepLevel`: the probabilities widened by
    /// a maximum over that radius and compared with `keepLevel`, which is
    /// all `kept` asks of them. Counted over a sliding window along rows,
    /// then columns, only around the pixels at that level (the plain
    /// maximum filter over the whole picture was a fifth of a photo's time).
    var nearInk: [Bool] {
        let width = probabilities.width, height = probabilities.height, radius = widening
        var near = [Bool](repeating: false, count: width * height)
        var minX = width, minY = height, maxX = -1, maxY = -1
        probabilities.values.withUnsafeBufferPointer { p in
            for y in 0..<height {
                for x in 0..<width where p[y * width + x] >= Self.keepLevel {
                    near[y * width + x] = true
                    (minX, maxX, minY, maxY) = (min(minX, x), max(maxX, x), min(minY, y), max(maxY, y))
                }
            }
        }
        guard maxX >= 0, radius > 0 else { return near }
        let left = max(0, minX - radius), right = min(width - 1, maxX + radius)
        let top = max(0, minY - radius), bottom = min(height - 1, maxY + radius)
        // Counts of marked pixels before each place of a line, then whether
        // a window of 2 * radius + 1 around each place holds one.
        var before = [Int32](repeating: 0, count: max(width, height) + 1)
        func widen(_ line: Int, from first: Int, through last: Int, count: Int, at index: (Int, Int) -> Int) {
            for i in 0..<count { before[i + 1] = before[i] + (near[index(line, i)] ? 1 : 0) }
            for i in first...last where before[min(count, i + radius + 1)] > before[max(0, i - radius)] {
                near[index(line, i)] = true
            }
        }
        for y in minY...maxY { widen(y, from: left, through: right, count: width) { y, x in y * width + x } }
        for x in left...right { widen(x, from: top, through: bottom, count: height) { x, y in y * width + x } }
        return near
    }

    /// A component of the rules' ink wider or taller than this many times
    /// the located ink's box is cut to the located ink.
    static let reach = 1.5

    /// The box of the pixels at or above `inkLevel`; nil when there are none.
    var locatedBox: BoundingBox? {
        let indices = inkMap.indices, width = inkMap.width
        guard let first = indices.first, let last = indices.last else { return nil }
        var minX = width, maxX = -1
        for index in indices {
            let x = index % width
            (minX, maxX) = (min(minX, x), max(maxX, x))
        }
        return BoundingBox(minX: minX, minY: first / width, maxX: maxX, maxY: last / width)
    }

    /// The share of the located ink's pixels that `map`, widened by half
    /// of one of the locator's pixels, covers: how much of what the locator
    /// saw the rules' ink explains.
    func coverage(by map: InkMap) -> Double {
        let radius = pixelSize > 1 ? Int((pixelSize / 2).rounded(.up)) : 0
        var inked = [Double](repeating: 0, count: probabilities.values.count)
        for index in map.indices { inked[index] = 1 }
        if radius > 0 {
            inked = MaximumFilter.square(Raster(width: probabilities.width, height: probabilities.height, values: inked), radius: radius).values
        }
        var located = 0, covered = 0
        for (p, i) in zip(probabilities.values, inked) where p >= Self.inkLevel {
            located += 1
            covered += i > 0 ? 1 : 0
        }
        return located == 0 ? 0 : Double(covered) / Double(located)
    }

    /// The rules' ink stands, however little it overlaps the located ink,
    /// when it covers at least this share of it...
    static let fineCoverage = 0.9
    /// ...and its strokes are at most this many of the locator's pixels
    /// wide: the locator saw part of a fine stroke (its trace fades under
    /// `inkLevel` along the way) and the rules the whole of it. Wider ink
    /// covering the located ink is more likely paper or shadow taken for
    /// ink. Both found on a development set of the photo generator, seed 21
    /// (docs/decisions.md). `StrokeWidth` measures a line at least 2 wide,
    /// so pictures under about 170 px (locator pixels under 4/3) never
    /// take this way; their strokes are not finer than the locator's.
    static let fineStrokeWidth = 1.5

    /// The located ink's strokes are bolder than the rules' when they are
    /// at least this many times as wide...
    static let boldStrokeRatio = 1.6
    /// ...and at least this many of the locator's pixels wide (analysis
    /// pixels on a picture smaller than the locator's), so that the locator
    /// resolved them and did not blur a pen line into a band. Both found on
    /// the selection seeds of the evaluation generators (docs/decisions.md).
    static let boldStrokePixels = 6.0

    /// Whether the located ink's strokes are bolder than `rules`' by
    /// `boldStrokeRatio`, and wide enough for the locator to have resolved
    /// them. A marker stroke wider than the rules' background cells keeps
    /// only its rims in `rules` (`StrokeWidthStage` measures the width on
    /// what is left): the located ink is the better picture of it. False
    /// when the rules kept nothing: then they found other ink, not less of it.
    func strokesBolder(than rules: InkMap) -> Bool {
        guard !rules.indices.isEmpty else { return false }
        let located = StrokeWidth.of(probabilities, atLeast: Self.inkLevel)
        guard located >= Self.boldStrokePixels * max(1, pixelSize) else { return false }
        return located >= Self.boldStrokeRatio * StrokeWidth.of(rules.indices, width: rules.width, height: rules.height)
    }

    /// Intersection over union of `map`'s pixels and the located ink's.
    func overlap(with map: InkMap) -> Double {
        let located = inkMap.count
        let both = map.indices.reduce(0) { $0 + (probabilities.values[$1] >= Self.inkLevel ? 1 : 0) }
        let union = located + map.count - both
        return union == 0 ? 0 : Double(both) / Double(union)
    }
}

/// Which part of the MNIST pipeline decided where the digit's ink is.
public enum InkDecision: String, Sendable, Equatable {
    /// The rules alone: no ink locator was given.
    case rules
    /// The rules alone: the picture is a clean drawing (`CleanDrawing`), so
    /// the ink locator was not asked.
    case rulesOnCleanDrawing = "rules (a clean drawing: the locator not asked)"
    /// The rules' ink, kept where the ink locator agrees (lines, frames and
    /// shadow edges away from the subject dropped).
    case rulesWhereLocated = "rules where located"
    /// The rules' ink where the locator agrees, though the locator saw only
    /// part of it: fine strokes covering nearly all the locator saw.
    case rulesBeyondLocated = "rules beyond located (fine strokes the locator saw in part)"
    /// The located ink: the rules found none, or other ink than the locator.
    case located
    /// The located ink: its strokes are bolder than the rules' ink, which
    /// kept only their rims (a marker stroke wider than the background cells).
    case locatedBolder = "located (strokes bolder than the rules kept)"
    /// The ink locator sees no subject: no digit, whatever the rules found.
    case nothingLocated = "nothing located"
    /// The ink locator sees no subject, but the rules' strokes are thinner
    /// than one of its pixels (a fine pen on a large picture): the rules.
    case rulesFinerThanLocator = "rules (strokes finer than the locator sees)"

    /// Whether the rules' ink was kept where the locator saw the subject's
    /// (and so the located ink alone is another view of it: `SecondLook`).
    var keepsRulesWithLocator: Bool { self == .rulesWhereLocated || self == .rulesBeyondLocated }

    /// Whether the subject's ink is the located ink (which may then be a
    /// window around the digit: `WindowInk`).
    var takesLocatedInk: Bool { self == .located || self == .locatedBolder }
}
