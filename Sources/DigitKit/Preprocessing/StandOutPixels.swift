/// Step 2b: the pixels that stand out from the background plane by more
/// than its noise threshold, below it (dark) and above it (light), found in
/// one pass over the picture.
///
/// Polarity detection and ink extraction both need every pixel's residual;
/// computing it once here, and keeping only the pixels beyond the threshold
/// (a small part of a picture: the ink, and on the wrong side some paper
/// texture), spares the second pass and the full-size rasters in between.
struct StandOutPixels {
    /// The pixels beyond the threshold on one side of the plane, row-major.
    struct Side {
        /// Pixel indices, y * width + x.
        var indices: [Int] = []
        /// How far each pixel lies beyond the plane (the residual, negated
        /// on the dark side): always more than the threshold.
        var levels: [Double] = []
        /// The sum of (level - threshold), in row-major order: the same sum
        /// as adding max(0, level - threshold) over all pixels, whose other
        /// terms are zeros.
        var weight = 0.0
    }

    let width: Int, height: Int
    /// The background's noise threshold.
    let threshold: Double
    /// Below the plane: dark ink on light paper.
    private(set) var dark = Side()
    /// Above the plane: light ink on dark paper.
    private(set) var light = Side()

    init(_ raster: Raster, background: BackgroundModel) {
        width = raster.width
        height = raster.height
        let threshold = background.threshold
        self.threshold = threshold
        // The plane's level is evaluated as BackgroundModel.level(x:y:) does,
        // (a + b x) + c y, with a + b x taken per column, once: the same
        // operations, so the same rounding.
        let columnLevels = (0..<width).map { background.a + background.b * Double($0) }
        // Most pixels lie well inside the noise band, and for them the
        // residual's rounding (a libm call and a division: most of this
        // loop's time) cannot matter. Rounding to a millionth moves a value by
        // at most 5e-7, the multiplication and division by 1e6 by a relative
        // 2^-52 more, so a pixel whose unrounded residual is at least `margin`
        // inside the threshold stays inside it once rounded. Those pixels are
        // skipped; every other one gets its residual as
        // BackgroundModel.residual defines it, so the result is the same as
        // rounding every pixel.
        let margin = 1e-3 + threshold * 1e-12
        let clearlyInside = threshold - margin
        var dark = Side(), light = Side()
        raster.values.withUnsafeBufferPointer { values in
            columnLevels.withUnsafeBufferPointer { columnLevels in
                for y in 0..<height {
                    let rowLevel = background.c * Double(y), row = y * width
                    for x in 0..<width {
                        // row + x < width * height == values.count; x < columnLevels.count.
                        let value = values[row + x], level = columnLevels[x] + rowLevel
                        if abs(value - level) <= clearlyInside { continue }
                        let residual = background.residual(value, level: level)
                        if -residual > threshold {
                            dark.indices.append(row + x)
                            dark.levels.append(-residual)
                            dark.weight += -residual - threshold
                        } else if residual > threshold {
                            light.indices.append(row + x)
                            light.levels.append(residual)
                            light.weight += residual - threshold
                        }
                    }
                }
            }
        }
        self.dark = dark
        self.light = light
    }
}
