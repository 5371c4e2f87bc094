/// Step 6 (`StandOutInkStage`): turns a picture into an ink map in [0, 1],
/// ink bright: how far each pixel stands out from the background surface on
/// the ink's side, noise below the threshold removed, contrast stretched so
/// that typical ink (the 90th percentile of ink pixels) is 1.
enum InkExtractor {
    /// The ink map, or nil when there is no ink clearly above the noise
    /// (its typical level under twice the threshold). Only the pixels beyond
    /// the threshold on the ink's side get a level above 0, so the map is
    /// made of them alone.
    static func inkMap(_ pixels: StandOutPixels, inkIsDark: Bool) -> InkMap? {
        let threshold = pixels.threshold
        let ink = inkIsDark ? pixels.dark : pixels.light
        guard !ink.levels.isEmpty else { return nil }
        let peak = RobustStatistics.percentile(ink.levels, 0.9)
        guard peak >= 2 * threshold else { return nil }
        // level > threshold and peak - threshold >= threshold >= 8, so every
        // value is above 0 (and at most 1).
        let values = ink.levels.map { min(1, max(0, ($0 - threshold) / (peak - threshold))) }
        return InkMap(width: pixels.width, height: pixels.height, indices: ink.indices, values: values)
    }

    /// Ink under this share of typical ink (map values below it) is weak:
    /// the soft rim of a shadow beside the digit, the fringe of a sheet's
    /// shaded edge, the faintest anti-aliasing; low enough to keep a faint
    /// digit's own strokes (docs/decisions.md, "Weak ink").
    static let weakShare = 0.1

    /// `map` without its weak pixels, for the single-digit path: a shadow's
    /// rim that touches the digit joins it into one component through its
    /// weak fringe, and the digit's box takes in the shadow (a 5 read as a
    /// 3). The number reader keeps them for its cuts between touching
    /// digits, which read better with them (docs/decisions.md, "Weak ink");
    /// each piece it reads leaves them out as this path does
    /// (`PieceTensor.strongLevel`).
    static func strong(_ map: InkMap) -> InkMap {
        map.filtered { map.values[$0] >= weakShare }
    }
}
