/// Tells a picture cropped tight to its ink (`convert -trim`, a screenshot
/// cut to the digit), whose thick strokes a local background measured in
/// cells narrower than them can hollow out, so that `Preprocessor` measures
/// them again with wider cells.
enum TightCrop {
    /// Ink within this many hundredths of a side of an edge touches it.
    static let edgeShare = 3

    /// Whether the largest 8-connected group of the pixels `marked`
    /// (row-major indices, increasing) reaches to within 3% of at least
    /// three of the picture's edges.
    static func holds(_ marked: [Int], width: Int, height: Int) -> Bool {
        guard let first = marked.first, let last = marked.last else { return false }
        let mx = max(1, width * edgeShare / 100), my = max(1, height * edgeShare / 100)
        func touchesThreeEdges(_ box: BoundingBox) -> Bool {
            [box.minX < mx, box.minY < my, box.maxX >= width - mx, box.maxY >= height - my].filter { $0 }.count >= 3
        }
        // The largest group lies inside the box of all marked pixels: when
        // that box touches fewer than three edges (most pictures), so does
        // the group, and nothing need be labelled.
        let columns = marked.lazy.map { $0 % width }
        let all = BoundingBox(minX: columns.min()!, minY: first / width, maxX: columns.max()!, maxY: last / width)
        guard touchesThreeEdges(all) else { return false }
        let map = InkMap(width: width, height: height, indices: marked, values: Array(repeating: 1, count: marked.count))
        let components = ConnectedComponents.label(map).components
        let largest = components.map(\.area).max()!
        return touchesThreeEdges(components.first { $0.area == largest }!.box)
    }
}
