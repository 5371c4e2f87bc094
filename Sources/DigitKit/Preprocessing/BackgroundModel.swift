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

    /// The plane at (x, y), evaluated as (a + b x) + c y.
    func level(x: Int, y: Int) -> Double { a + b * Double(x) + c * Double(y) }

    /// How far `value` lies above the plane, whose level at its pixel is
    /// `level`, rounded to a millionth of a grey level: a flat background's
    /// plane carries noise in its last bits, and without the rounding a pixel
    /// exactly at the threshold would fall on either side depending on
    /// summation order (and so differ from the numpy reference).
    @inline(__always)
    func residual(_ value: Double, level: Double) -> Double {
        ((value - level) * 1e6).rounded() / 1e6
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
    /// (The ring's median, the level of a flat plane, is only ranked when the
    /// first fit fails, which is the only time it is used.)
    static func estimate(_ raster: Raster) -> BackgroundModel {
        let ring = BorderRing(raster, thickness: borderThickness(width: raster.width, height: raster.height))
        var scratch = [Double](repeating: 0, count: ring.count)
        var plane = fitPlane(ring) { _, _, _ in true }
            ?? Plane(a: RobustStatistics.lowerMedian(ring.values), b: 0, c: 0)
        var threshold = noiseThreshold(ring, plane, scratch: &scratch)
        for _ in 0..<refits {
            let fitted = plane, limit = threshold
            plane = fitPlane(ring) { x, y, value in abs(value - fitted.level(x, y)) <= limit } ?? plane
            threshold = noiseThreshold(ring, plane, scratch: &scratch)
        }
        return BackgroundModel(a: plane.a, b: plane.b, c: plane.c, threshold: threshold)
    }

    /// A plane a + b x + c y during the fit.
    struct Plane {
        var a: Double, b: Double, c: Double

        @inline(__always)
        func level(_ x: Double, _ y: Double) -> Double { a + b * x + c * y }
    }

    /// max(8, 3 sigma), sigma from the median absolute residual of the ring
    /// (ranked in `scratch`, which holds one value per ring pixel).
    private static func noiseThreshold(_ ring: BorderRing, _ plane: Plane, scratch: inout [Double]) -> Double {
        scratch.withUnsafeMutableBufferPointer { residuals in
            var index = 0
            ring.forEach { x, y, value in
                residuals[index] = abs(value - plane.level(x, y))  // index < ring.count == residuals.count
                index += 1
            }
        }
        return max(8, 3 * 1.4826 * RobustStatistics.percentile(reordering: &scratch, 0.5))
    }

    /// Least squares plane through the ring pixels that `isInlier` accepts
    /// (normal equations solved by Cramer's rule); nil for fewer than 3
    /// points or a degenerate set. The sums run in the ring's row-major order,
    /// so they round as they always have.
    private static func fitPlane(_ ring: BorderRing, where isInlier: (_ x: Double, _ y: Double, _ value: Double) -> Bool) -> Plane? {
        var points = 0
        var n = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0, syy = 0.0, sv = 0.0, sxv = 0.0, syv = 0.0
        ring.forEach { x, y, v in
            guard isInlier(x, y, v) else { return }
            points += 1
            n += 1; sx += x; sy += y; sxx += x * x; sxy += x * y; syy += y * y; sv += v; sxv += x * v; syv += y * v
        }
        guard points >= 3 else { return nil }
        let d = det((n, sx, sy), (sx, sxx, sxy), (sy, sxy, syy))
        guard abs(d) > 1e-9 * max(1, n * n * n) else { return nil }
        let da = det((sv, sx, sy), (sxv, sxx, sxy), (syv, sxy, syy))
        let db = det((n, sv, sy), (sx, sxv, sxy), (sy, syv, syy))
        let dc = det((n, sx, sv), (sx, sxx, sxv), (sy, sxy, syv))
        return Plane(a: da / d, b: db / d, c: dc / d)
    }

    /// The determinant of the 3x3 matrix with rows r0, r1, r2, expanded along the first row.
    private static func det(_ r0: (Double, Double, Double), _ r1: (Double, Double, Double), _ r2: (Double, Double, Double)) -> Double {
        r0.0 * (r1.1 * r2.2 - r1.2 * r2.1)
            - r0.1 * (r1.0 * r2.2 - r1.2 * r2.0)
            + r0.2 * (r1.0 * r2.1 - r1.1 * r2.0)
    }
}
