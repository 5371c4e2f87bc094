/// Step 2 of the MNIST pipeline: decides whether the ink is darker or lighter
/// than the background, judged from the picture's border (which is mostly
/// background), and turns the picture so the ink is bright on dark, as in MNIST.
enum PolarityDetector {
    /// What the border says about the background.
    struct Background: Equatable {
        /// Its typical grey level (lower median of the border).
        let level: Double
        /// Ink must differ from the background by more than this: 3 sigma of the
        /// border's noise, at least 8 grey levels.
        let threshold: Double
    }

    /// The border ring's width: 1/16 of the shorter side, at least 1 pixel.
    static func borderThickness(width: Int, height: Int) -> Int {
        max(1, min(width, height) / 16)
    }

    static func background(of raster: Raster) -> Background {
        let ring = raster.border(thickness: borderThickness(width: raster.width, height: raster.height)).map(\.value)
        let level = RobustStatistics.lowerMedian(ring)
        let sigma = RobustStatistics.noiseSigma(ring, around: level)
        return Background(level: level, threshold: max(8, 3 * sigma))
    }

    /// True when the ink is darker than the background: the pixels beyond the
    /// threshold on the dark side outweigh those on the light side.
    static func inkIsDark(_ raster: Raster, background: Background) -> Bool {
        var dark = 0.0, light = 0.0
        for value in raster.values {
            dark += max(0, background.level - value - background.threshold)
            light += max(0, value - background.level - background.threshold)
        }
        return dark > light
    }

    /// 255 - value for every pixel.
    static func inverted(_ raster: Raster) -> Raster {
        Raster(width: raster.width, height: raster.height, values: raster.values.map { 255 - $0 })
    }
}
