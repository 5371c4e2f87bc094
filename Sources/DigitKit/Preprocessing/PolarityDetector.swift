/// Step 4 (`PolarityStage`): decides whether the ink is darker or lighter than the
/// background: which side of the background surface holds more of the
/// pixels that stand out from it.
enum PolarityDetector {
    /// True when the pixels beyond the threshold below the surface outweigh
    /// those above it: the sum of max(0, -residual - threshold) over the
    /// region's pixels against the sum of max(0, residual - threshold).
    static func inkIsDark(_ pixels: StandOutPixels) -> Bool {
        pixels.dark.weight > pixels.light.weight
    }

    /// A background whose typical level is at least this is light: paper,
    /// not a dark board or screen.
    static let lightBackground = 128.0

    /// True when the typical background level, the median of the defined
    /// cell medians, is light. On light paper the ink is dark: nothing is
    /// lighter than the paper but the lit side of a shadow's edge or glare,
    /// which the weights above take for bright ink on a blank photo with a
    /// shadow; light ink lies on dark backgrounds, well under this level
    /// (docs/decisions.md, "Light paper means dark ink").
    static func isLight(background medians: CellGrid<Double>) -> Bool {
        let defined = medians.cells.filter { !$0.isNaN }
        return !defined.isEmpty && RobustStatistics.lowerMedian(defined) >= lightBackground
    }

    /// 255 - value for every pixel: the picture with its ink bright, for showing.
    static func inverted(_ raster: Raster) -> Raster {
        Raster(width: raster.width, height: raster.height, values: raster.values.map { 255 - $0 })
    }
}
