/// Step 3: turns a picture into an ink map in [0, 1], ink bright: how far
/// each pixel stands out from the background plane on the ink's side, noise
/// below the threshold removed, contrast stretched so that typical ink (the
/// 90th percentile of ink pixels) is 1.
enum InkExtractor {
    /// The ink map, or nil when there is no ink clearly above the noise
    /// (its typical level under twice the threshold).
    static func inkMap(_ raster: Raster, background: BackgroundModel, inkIsDark: Bool) -> Raster? {
        let threshold = background.threshold
        var above = raster
        for y in 0..<raster.height {
            for x in 0..<raster.width {
                let residual = background.residual(raster[x, y], x: x, y: y)
                above[x, y] = max(0, inkIsDark ? -residual : residual)
            }
        }
        let inkLevels = above.values.filter { $0 > threshold }
        guard !inkLevels.isEmpty else { return nil }
        let peak = RobustStatistics.percentile(inkLevels, 0.9)
        guard peak >= 2 * threshold else { return nil }
        above.values = above.values.map { min(1, max(0, ($0 - threshold) / (peak - threshold))) }
        return above
    }
}
