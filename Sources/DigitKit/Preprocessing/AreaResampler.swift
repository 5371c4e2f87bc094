/// Resizes a greyscale raster by area averaging: each output pixel is the
/// mean of the source area it covers, with fractional coverage at the edges.
/// Shrinking therefore never aliases; enlarging replicates pixels with
/// linear blending at the seams; a same-size resize is the identity.
enum AreaResampler {
    /// For each output index along one axis, the source indices it covers
    /// and the share of each (the shares of one output sum to 1).
    static func weights(from source: Int, to target: Int) -> [[(index: Int, weight: Float)]] {
        let scale = Double(source) / Double(target)
        return (0..<target).map { out in
            let start = Double(out) * scale, end = Double(out + 1) * scale
            var taps: [(index: Int, weight: Float)] = []
            var index = Int(start.rounded(.down))
            while Double(index) < end && index < source {
                let covered = min(end, Double(index + 1)) - max(start, Double(index))
                if covered > 1e-12 { taps.append((index, Float(covered / scale))) }
                index += 1
            }
            return taps
        }
    }

    /// `pixels` (width x height, row-major) resized to targetWidth x targetHeight, as floats in the same range.
    static func resize(_ pixels: [Float], width: Int, height: Int, targetWidth: Int, targetHeight: Int) -> [Float] {
        let columns = weights(from: width, to: targetWidth)
        let rows = weights(from: height, to: targetHeight)
        // Horizontal pass: every source row to targetWidth columns.
        var horizontal = [Float](repeating: 0, count: targetWidth * height)
        for y in 0..<height {
            let row = y * width
            for (x, taps) in columns.enumerated() {
                var sum: Float = 0
                for tap in taps { sum += pixels[row + tap.index] * tap.weight }
                horizontal[y * targetWidth + x] = sum
            }
        }
        // Vertical pass.
        var result = [Float](repeating: 0, count: targetWidth * targetHeight)
        for (y, taps) in rows.enumerated() {
            for x in 0..<targetWidth {
                var sum: Float = 0
                for tap in taps { sum += horizontal[tap.index * targetWidth + x] * tap.weight }
                result[y * targetWidth + x] = sum
            }
        }
        return result
    }
}
