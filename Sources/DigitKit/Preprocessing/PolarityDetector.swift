/// Step 2b: decides whether the ink is darker or lighter than the
/// background: which side of the background plane holds more of the pixels
/// that stand out from it.
enum PolarityDetector {
    /// True when the pixels beyond the threshold below the plane outweigh those above it.
    static func inkIsDark(_ raster: Raster, background: BackgroundModel) -> Bool {
        var dark = 0.0, light = 0.0
        for y in 0..<raster.height {
            for x in 0..<raster.width {
                let residual = background.residual(raster[x, y], x: x, y: y)
                dark += max(0, -residual - background.threshold)
                light += max(0, residual - background.threshold)
            }
        }
        return dark > light
    }

    /// 255 - value for every pixel: the picture with its ink bright, for showing.
    static func inverted(_ raster: Raster) -> Raster {
        Raster(width: raster.width, height: raster.height, values: raster.values.map { 255 - $0 })
    }
}
