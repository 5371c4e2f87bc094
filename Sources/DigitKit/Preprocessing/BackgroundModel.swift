/// Step 2a: models the picture's background from its border (which is mostly
/// background): a plane a + b x + c y, so that a paper tint and a gentle
/// illumination gradient (a lamp on one side, a phone's shadow) are removed,
/// and the noise around it, so that ink can be told from paper texture.
struct BackgroundModel: Equatable {
    /// The plane's coefficients.
    let a: Double, b: Double, c: Double
    /// Ink must differ from the plane by more than this: 3 sigma of the
    /// border's residual noise, at least 8 grey levels.
    let threshold: Double

    func level(x: Int, y: Int) -> Double { a + b * Double(x) + c * Double(y) }

    /// How far `value` at (x, y) lies above the plane, rounded to a
    /// millionth of a grey level: a flat background's plane carries noise in
    /// its last bits, and without the rounding a pixel exactly at the
    /// threshold would fall on either side depending on summation order
    /// (and so differ from the numpy reference).
    func residual(_ value: Double, x: Int, y: Int) -> Double {
        ((value - level(x: x, y: y)) * 1e6).rounded() / 1e6
    }

    /// Refits after the first fit, each time without the border pixels that
    /// stand out from the plane (ink touching the border, dust).
    static let refits = 2

    /// The border ring's width: 1/16 of the shorter side, at least 1 pixel.
    static func borderThickness(width: Int, height: Int) -> Int {
        max(1, min(width, height) / 16)
    }

    /// Fits the border of `raster`: least squares on the whole ring, then
    /// `refits` times on the ring pixels within the threshold of the plane.
    static func estimate(_ raster: Raster) -> BackgroundModel {
        let ring = raster.border(thickness: borderThickness(width: raster.width, height: raster.height))
        let median = RobustStatistics.lowerMedian(ring.map(\.value))
        var plane = fitPlane(ring) ?? (median, 0, 0)
        var threshold = noiseThreshold(ring, plane)
        for _ in 0..<refits {
            let inliers = ring.filter { abs($0.value - (plane.a + plane.b * Double($0.x) + plane.c * Double($0.y))) <= threshold }
            plane = fitPlane(inliers) ?? plane
            threshold = noiseThreshold(ring, plane)
        }
        return BackgroundModel(a: plane.a, b: plane.b, c: plane.c, threshold: threshold)
    }

    /// max(8, 3 sigma), sigma from the median absolute residual of the ring.
    private static func noiseThreshold(_ ring: [(x: Int, y: Int, value: Double)], _ plane: (a: Double, b: Double, c: Double)) -> Double {
        let residuals = ring.map { abs($0.value - (plane.a + plane.b * Double($0.x) + plane.c * Double($0.y))) }
        return max(8, 3 * 1.4826 * RobustStatistics.lowerMedian(residuals))
    }

    /// Least squares plane through the points (normal equations solved by
    /// Cramer's rule); nil for fewer than 3 points or a degenerate set.
    private static func fitPlane(_ points: [(x: Int, y: Int, value: Double)]) -> (a: Double, b: Double, c: Double)? {
        guard points.count >= 3 else { return nil }
        var n = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0, syy = 0.0, sv = 0.0, sxv = 0.0, syv = 0.0
        for p in points {
            let x = Double(p.x), y = Double(p.y), v = p.value
            n += 1; sx += x; sy += y; sxx += x * x; sxy += x * y; syy += y * y; sv += v; sxv += x * v; syv += y * v
        }
        func det(_ m: [[Double]]) -> Double {
            m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
                - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        }
        let d = det([[n, sx, sy], [sx, sxx, sxy], [sy, sxy, syy]])
        guard abs(d) > 1e-9 * max(1, n * n * n) else { return nil }
        let da = det([[sv, sx, sy], [sxv, sxx, sxy], [syv, sxy, syy]])
        let db = det([[n, sv, sy], [sx, sxv, sxy], [sy, syv, syy]])
        let dc = det([[n, sx, sv], [sx, sxx, sxv], [sy, sxy, syv]])
        return (da / d, db / d, dc / d)
    }
}
