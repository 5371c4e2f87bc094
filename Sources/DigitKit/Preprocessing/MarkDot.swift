/// The dot under a question or an exclamation mark. Too small to pass step 9's
/// area test, it was dropped as a speck, and what was left (a hook, a bar)
/// was read as a confident 7 or 1. Kept, the model sees the whole mark,
/// which it learned to call "not a digit".
extension ConnectedComponents {
    /// The one component, if any, that is such a dot under the cluster
    /// `keep` anchored on `anchor`: round and solid, about a stroke wide,
    /// not faint beside the anchor, just below the cluster and under the
    /// anchor's lowest ink. `labels` and `components` are `label(map)`'s.
    /// Two or more such components are specks, not a dot: none is kept.
    static func dot(under anchor: Int, cluster keep: [Bool], in map: InkMap, labels: [Int32],
                    components: [Component]) -> Int? {
        let stem = components[anchor]
        guard let cluster = box(of: keep, in: components) else { return nil }
        // A stroke's area over its box's half perimeter: about its width.
        let strokeWidth = Double(stem.area) / Double(stem.box.width + stem.box.height)
        guard let foot = lowestInk(of: anchor, band: max(2, Int(2 * strokeWidth)), in: map, labels: labels, below: stem.box) else { return nil }
        let meanLevel = stem.mass / Double(stem.area)
        let dots = components.indices.filter { i in
            let d = components[i]
            let longer = Double(max(d.box.width, d.box.height)), shorter = Double(min(d.box.width, d.box.height))
            let centre = Double(d.box.minX + d.box.maxX) / 2
            let gap = d.box.minY - cluster.maxY
            return !keep[i]
                && shorter >= 0.7 * strokeWidth && longer <= 3 * strokeWidth && shorter >= 0.5 * longer
                && Double(d.area) >= 0.35 * Double(d.box.width * d.box.height)
                && d.mass / Double(d.area) >= faintShare * meanLevel
                && gap >= 1 && Double(gap) <= 0.5 * Double(cluster.height)
                && centre >= Double(foot.lowerBound) - strokeWidth && centre <= Double(foot.upperBound) + strokeWidth
        }
        return dots.count == 1 ? dots[0] : nil
    }

    /// The columns of component `anchor`'s ink in the `band` rows at the bottom of its `box`.
    private static func lowestInk(of anchor: Int, band: Int, in map: InkMap, labels: [Int32], below box: BoundingBox) -> ClosedRange<Int>? {
        var left = Int.max, right = Int.min
        let top = box.maxY - band + 1
        for (k, index) in map.indices.enumerated() where Int(labels[k]) == anchor + 1 {
            let y = index / map.width, x = index % map.width
            if y >= top { left = min(left, x); right = max(right, x) }
        }
        return left <= right ? left...right : nil
    }

    private static func box(of keep: [Bool], in components: [Component]) -> BoundingBox? {
        var box: BoundingBox?
        for (i, component) in components.enumerated() where keep[i] {
            if box == nil { box = component.box } else { box!.include(component.box) }
        }
        return box
    }
}
