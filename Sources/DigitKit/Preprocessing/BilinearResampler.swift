/// Enlarges a raster with bilinear interpolation, sampling the source at
/// ((i + 0.5) / scale - 0.5) with edges clamped (align_corners=False), for
/// digits smaller than MNIST's 20-pixel box; shrinking uses AreaResampler.
enum BilinearResampler {
    static func resize(_ source: Raster, targetWidth: Int, targetHeight: Int) -> Raster {
        let sx = Double(source.width) / Double(targetWidth), sy = Double(source.height) / Double(targetHeight)
        func taps(_ i: Int, _ scale: Double, _ size: Int) -> (Int, Int, Double) {
            let position = min(max((Double(i) + 0.5) * scale - 0.5, 0), Double(size - 1))
            let lower = Int(position.rounded(.down))
            return (lower, min(lower + 1, size - 1), position - Double(lower))
        }
        // The column taps are the same for every row: found once.
        let columns = (0..<targetWidth).map { taps($0, sx, source.width) }
        var out = [Double](repeating: 0, count: targetWidth * targetHeight)
        for y in 0..<targetHeight {
            let (y0, y1, fy) = taps(y, sy, source.height)
            for (x, (x0, x1, fx)) in columns.enumerated() {
                let top = source[x0, y0] * (1 - fx) + source[x1, y0] * fx
                let bottom = source[x0, y1] * (1 - fx) + source[x1, y1] * fx
                out[y * targetWidth + x] = top * (1 - fy) + bottom * fy
            }
        }
        return Raster(width: targetWidth, height: targetHeight, values: out)
    }
}
