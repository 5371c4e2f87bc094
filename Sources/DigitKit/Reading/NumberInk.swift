/// The ink of a picture of a number, cut into glyphs: groups of ink
/// components that stand for one character, or for several digits that
/// touch. Glyphs are ordered left to right; the line they sit on (the
/// median top and bottom of the digit-sized ones) tells a decimal point or
/// a minus sign from a digit.
struct NumberInk {
    /// A group of components read as one character or one run of touching digits.
    struct Glyph {
        var box: BoundingBox
        var area: Int
        /// How many of its pixels are strong ink (InkExtractor.weakShare of
        /// the brightest or more), the only ink the digit model is shown
        /// (PieceTensor.strongLevel).
        var strongArea: Int
        /// Indices into the components of the labelled map.
        var components: [Int]
        /// The height of its tallest component: a glyph gathered from dots
        /// (a dotted page's) is tall, its components are not.
        var tallestComponent: Int
        /// Its strongest pixel's ink, 0-1: a pen's dot is as dark as the
        /// pen's strokes, a dotted page's dot or a chip of a ruled line is not.
        var peak: Double
    }

    /// Components below this share of the largest component's area are
    /// specks, unless they are big enough to be a decimal point: a dot is
    /// about 1/20 of a digit's ink.
    static let speckShare = 60
    /// A component this much shorter than the tallest is a part of a digit
    /// (a 5's flag, a 4's second stroke) when it lies over that digit.
    static let partHeight = 0.6
    /// ...and lies at least this share of its width within the digit's
    /// columns (a 5's flag reaches out to the right of its body).
    static let partOverlap = 0.3

    let map: InkMap
    /// Each ink pixel's component label (1-based), in the order of `map.indices`.
    let labels: [Int32]
    let glyphs: [Glyph]
    /// The median top and bottom row of the digit-sized glyphs.
    let lineTop: Int, lineBottom: Int

    var lineHeight: Int { lineBottom - lineTop + 1 }

    /// The glyphs of `map`, or nil when it holds no component large enough
    /// to be a digit.
    init?(_ map: InkMap) {
        let (labels, components) = ConnectedComponents.label(map)
        guard let largest = components.map(\.area).max(),
              largest >= ConnectedComponents.minimumArea(width: map.width, height: map.height) else { return nil }
        let floor = max(ConnectedComponents.minimumArea(width: map.width, height: map.height), largest / Self.speckShare)
        let kept = components.indices.filter { components[$0].area >= floor }.sorted { components[$0].box.minX < components[$1].box.minX }
        var strongAreas = [Int](repeating: 0, count: components.count)
        var peaks = [Double](repeating: 0, count: components.count)
        for (label, value) in zip(labels, map.values) {
            let component = Int(label) - 1
            if value >= InkExtractor.weakShare { strongAreas[component] += 1 }
            peaks[component] = max(peaks[component], value)
        }
        // The largest component is always kept (its area is at least the floor).
        let tallest = kept.map { components[$0].box.height }.max() ?? 0
        var glyphs: [Glyph] = []
        for index in kept {
            let part = components[index]
            let isPart = Double(part.box.height) < Double(tallest) * Self.partHeight
            // The glyph whose columns hold most of this component, if it is a part.
            let host = glyphs.indices.max { overlap(glyphs[$0].box, part.box) < overlap(glyphs[$1].box, part.box) }
            if isPart, let host, Double(overlap(glyphs[host].box, part.box)) >= Double(part.box.width) * Self.partOverlap {
                glyphs[host].box.include(part.box)
                glyphs[host].area += part.area
                glyphs[host].strongArea += strongAreas[index]
                glyphs[host].components.append(index)
                glyphs[host].tallestComponent = max(glyphs[host].tallestComponent, part.box.height)
                glyphs[host].peak = max(glyphs[host].peak, peaks[index])
            } else {
                glyphs.append(Glyph(box: part.box, area: part.area, strongArea: strongAreas[index], components: [index],
                                    tallestComponent: part.box.height, peak: peaks[index]))
            }
        }
        glyphs.sort { $0.box.minX < $1.box.minX }
        let tallestGlyph = glyphs.map(\.box.height).max() ?? 0
        let digitSized = glyphs.filter { $0.box.height * 2 >= tallestGlyph }
        self.map = map
        self.labels = labels
        self.glyphs = glyphs
        self.lineTop = Self.median(digitSized.map(\.box.minY))
        self.lineBottom = Self.median(digitSized.map(\.box.maxY))
    }

    /// The ink of `glyph`'s components over its box, grey levels 0-255.
    func raster(of glyph: Glyph) -> Raster {
        let members = Set(glyph.components.map { Int32($0 + 1) })
        return map.filtered { members.contains(labels[$0]) }.cropped(glyph.box, scale: 255)
    }

    private static func median(_ values: [Int]) -> Int {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }
}

/// The columns two boxes share.
func overlap(_ a: BoundingBox, _ b: BoundingBox) -> Int {
    max(0, min(a.maxX, b.maxX) - max(a.minX, b.minX) + 1)
}
