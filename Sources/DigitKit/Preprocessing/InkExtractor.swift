/// Step 3b: turns a picture whose ink is bright into an ink map in [0, 1]:
/// background plane subtracted, noise below the threshold removed, contrast
/// stretched so that typical ink (the 90th percentile of ink pixels) is 1.
enum InkExtractor {
    /// The ink map, or nil when there is no ink clearly above the noise.
    static func inkMap(_ raster: Raster, threshold: Double) -> Raster? {
        let plane = BackgroundPlane.fit(raster, threshold: threshold)
        var above = raster
        for y in 0..<raster.height {
            for x in 0..<raster.width {
                above[x, y] = max(0, raster[x, y] - plane.value(x: x, y: y))
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
