/// Step 10b (in `NormalizationTail`): thin strokes made as thick as MNIST's.
/// A 1-3 pixel pen line on a large canvas, shrunk into the 20-pixel box, is a
/// faint trace a tenth of a pixel wide where MNIST's strokes are 2 to 3
/// pixels of full ink; the model reads such traces badly. When the box's ink
/// never reaches 60% of full intensity (the 95th percentile of its non-zero
/// pixels), each pixel takes the largest value among itself and its 4
/// neighbours (8 for the faintest traces, whose mean ink over the pixels
/// above a tenth of full is under a quarter), and the box is stretched so
/// that the 95th percentile is full ink again.
enum StrokeThickener {
    /// Below this share of full ink at the 95th percentile, strokes are thin.
    static let thinBelow = 0.6
    /// Below this mean ink (in shares of full) the 8-neighbourhood is used.
    static let faintestBelow = 0.25

    /// The 95th percentile of `box`'s non-zero pixels (grey levels 0-255),
    /// nil when it holds no ink.
    static func typicalInk(_ box: Raster) -> Double? {
        let ink = box.values.filter { $0 > 0 }
        return ink.isEmpty ? nil : RobustStatistics.percentile(ink, 0.95)
    }

    /// Whether `box`'s strokes are thin: its typical ink under `thinBelow` of full.
    static func isThin(_ box: Raster) -> Bool {
        typicalInk(box).map { $0 < thinBelow * 255 } ?? false
    }

    /// `box` (grey levels 0-255) with its strokes thickened when they are thin.
    static func thickened(_ box: Raster) -> Raster {
        guard isThin(box) else { return box }
        let visible = box.values.filter { $0 > 0.1 * 255 }.count
        let meanInk = box.values.reduce(0, +) / 255 / Double(max(1, visible))
        var offsets = [(-1, 0), (1, 0), (0, -1), (0, 1)]
        if meanInk < faintestBelow { offsets += [(-1, -1), (-1, 1), (1, -1), (1, 1)] }
        var out = box
        for y in 0..<box.height {
            for x in 0..<box.width {
                for (dy, dx) in offsets {
                    let nx = x + dx, ny = y + dy
                    if nx >= 0 && nx < box.width && ny >= 0 && ny < box.height { out[x, y] = max(out[x, y], box[nx, ny]) }
                }
            }
        }
        let top = RobustStatistics.percentile(out.values.filter { $0 > 0 }, 0.95)
        out.values = out.values.map { min(255, $0 * (255 / top)) }
        return out
    }
}
