/// Step 2d: decides whether the ink is darker or lighter than the
/// background: which side of the background surface holds more of the
/// pixels that stand out from it.
enum PolarityDetector {
    /// True when the pixels beyond the threshold below the surface outweigh
    /// those above it: the sum of max(0, -residual - threshold) over the
    /// region's pixels against the sum of max(0, residual - threshold).
    static func inkIsDark(_ pixels: StandOutPixels) -> Bool {
        pixels.dark.weight > pixels.light.weight
    }

    /// 255 - value for every pixel: the picture with its ink bright, for showing.
    static func inverted(_ raster: Raster) -> Raster {
        Raster(width: raster.width, height: raster.height, values: raster.values.map { 255 - $0 })
    }
}
