/// Step 3a: models the background as a plane a + b x + c y, fitted by least
/// squares to the border pixels that are not ink. It removes a paper tint
/// and a gentle illumination gradient (a lamp on one side, a phone's shadow).
struct BackgroundPlane: Equatable {
    let a: Double, b: Double, c: Double

    func value(x: Int, y: Int) -> Double { a + b * Double(x) + c * Double(y) }

    /// Fits the border ring of `raster` (ink bright), leaving out pixels more
    /// than `threshold` above the border's median. A flat plane at the median
    /// when fewer than 3 pixels remain or they do not span a plane.
    static func fit(_ raster: Raster, threshold: Double) -> BackgroundPlane {
        let ring = raster.border(thickness: PolarityDetector.borderThickness(width: raster.width, height: raster.height))
        let median = RobustStatistics.lowerMedian(ring.map(\.value))
        let points = ring.filter { $0.value <= median + threshold }
        let flat = BackgroundPlane(a: median, b: 0, c: 0)
        guard points.count >= 3 else { return flat }
        // Normal equations of [1 x y] * (a b c) = v, solved by Cramer's rule.
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
        let m = [[n, sx, sy], [sx, sxx, sxy], [sy, sxy, syy]]
        let d = det(m)
        guard abs(d) > 1e-9 * max(1, n * n * n) else { return flat }
        let da = det([[sv, sx, sy], [sxv, sxx, sxy], [syv, sxy, syy]])
        let db = det([[n, sv, sy], [sx, sxv, sxy], [sy, syv, syy]])
        let dc = det([[n, sx, sv], [sx, sxx, sxv], [sy, sxy, syv]])
        return BackgroundPlane(a: da / d, b: db / d, c: dc / d)
    }
}
