/// The dot under a question or an exclamation mark. Too small to pass step 9's
/// area test, it was dropped as a speck, and what was left (a hook, a bar)
/// was read as a confident 7 or 1. Kept, the model sees the whole mark
/// (docs/decisions.md, "The dot of a question or an exclamation mark").
extension ConnectedComponents {
    /// A dot's sides lie between these multiples of the stroke width.
    static let dotSides = 0.7...3.0
    /// A dot is round: its shorter side at least this share of its longer.
    static let dotRoundness = 0.5
    /// A dot is solid: at least this share of its box inked.
    static let dotFill = 0.35
    /// A dot lies below the cluster by at most this share of its height.
    static let dotGapShare = 0.5
    /// The anchor's foot: its ink in this many stroke widths at its bottom.
    static let footStrokes = 2.0

    /// The one component, if any, that is such a dot under the cluster
    /// `keep` anchored on `anchor`: round and solid, about a stroke wide,
    /// not faint beside the anchor, just below the cluster and centred
    /// under the anchor's foot, within a stroke width. `labels` and
    /// `components` are `label(map)`'s. Two or more such components are
    /// specks, not a dot: none is kept.
    static func dot(under anchor: Int, cluster keep: [Bool], in map: InkMap, labels: [Int32],
                    components: [Component]) -> Int? {
        let stem = components[anchor]
        // A stroke's area over its box's half perimeter: about its width.
        let strokeWidth = Double(stem.area) / Double(stem.box.width + stem.box.height)
        let meanLevel = stem.mass / Double(stem.area)
        var cluster = stem.box
        for (i, component) in components.enumerated() where keep[i] { cluster.include(component.box) }
        let dots = components.indices.filter { i in
            let d = components[i]
            let longer = Double(max(d.box.width, d.box.height)), shorter = Double(min(d.box.width, d.box.height))
            let gap = d.box.minY - cluster.maxY
            return !keep[i]
                && shorter >= dotSides.lowerBound * strokeWidth && longer <= dotSides.upperBound * strokeWidth
                && shorter >= dotRoundness * longer
                && Double(d.area) >= dotFill * Double(d.box.width * d.box.height)
                && d.mass / Double(d.area) >= faintShare * meanLevel
                && gap >= 1 && Double(gap) <= dotGapShare * Double(cluster.height)
        }
        // The foot is measured only for a component that passed the rest.
        guard !dots.isEmpty, let foot = foot(of: anchor, rows: max(2, Int(footStrokes * strokeWidth)), in: map, labels: labels,
                                             components: components) else { return nil }
        let under = dots.filter { i in
            let centre = Double(components[i].box.minX + components[i].box.maxX) / 2
            return centre >= Double(foot.lowerBound) - strokeWidth && centre <= Double(foot.upperBound) + strokeWidth
        }
        return under.count == 1 ? under[0] : nil
    }

    /// The columns of component `anchor`'s ink in the bottom `rows` rows of its own box.
    private static func foot(of anchor: Int, rows: Int, in map: InkMap, labels: [Int32], components: [Component]) -> ClosedRange<Int>? {
        var left = Int.max, right = Int.min
        let top = components[anchor].box.maxY - rows + 1
        var k = 0
        map.forEachPixel { x, y, _ in
            defer { k += 1 }
            guard y >= top, Int(labels[k]) - 1 == anchor else { return }
            left = min(left, x)
            right = max(right, x)
        }
        return left <= right ? left...right : nil
    }
}
