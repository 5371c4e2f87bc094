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
        guard !marked.isEmpty else { return false }
        let map = InkMap(width: width, height: height, indices: marked, values: Array(repeating: 1, count: marked.count))
        let components = ConnectedComponents.label(map).components
        let largest = components.map(\.area).max()!
        let box = components.first { $0.area == largest }!.box
        let mx = max(1, width * edgeShare / 100), my = max(1, height * edgeShare / 100)
        let touching = [box.minX < mx, box.minY < my, box.maxX >= width - mx, box.maxY >= height - my]
        return touching.filter { $0 }.count >= 3
    }
}
