/// Resizes a raster by area averaging: each output pixel is the mean of the
/// source area it covers, with fractional coverage at the edges. Shrinking
/// therefore never aliases; a same-size resize is the identity.
enum AreaResampler {
    /// For each output index along one axis, the source indices it covers
    /// and the share of each (the shares of one output sum to 1).
    static func weights(from source: Int, to target: Int) -> [[(index: Int, weight: Double)]] {
        let scale = Double(source) / Double(target)
        return (0..<target).map { out in
            let start = Double(out) * scale, end = Double(out + 1) * scale
            var taps: [(index: Int, weight: Double)] = []
            var index = Int(start.rounded(.down))
            while Double(index) < end && index < source {
                let covered = min(end, Double(index + 1)) - max(start, Double(index))
                if covered > 1e-12 { taps.append((index, covered / scale)) }
                index += 1
            }
            return taps
        }
    }

    /// `source` resized to targetWidth x targetHeight, in the same value range.
    static func resize(_ source: Raster, targetWidth: Int, targetHeight: Int) -> Raster {
        if source.width == targetWidth && source.height == targetHeight { return source }
        return resize(source.values, width: source.width, height: source.height, targetWidth: targetWidth, targetHeight: targetHeight)
    }

    /// An 8-bit image resized straight to a Raster, without first widening
    /// all of its pixels to Double.
    static func resize(_ image: GrayImage, targetWidth: Int, targetHeight: Int) -> Raster {
        resize(image.pixels, width: image.width, height: image.height, targetWidth: targetWidth, targetHeight: targetHeight)
    }

    private static func resize<Sample: BinaryInteger>(_ values: [Sample], width: Int, height: Int,
                                                      targetWidth: Int, targetHeight: Int) -> Raster {
        resize(values, width: width, height: height, targetWidth: targetWidth, targetHeight: targetHeight) { Double($0) }
    }

    private static func resize(_ values: [Double], width: Int, height: Int, targetWidth: Int, targetHeight: Int) -> Raster {
        resize(values, width: width, height: height, targetWidth: targetWidth, targetHeight: targetHeight) { $0 }
    }

    private static func resize<Sample>(_ values: [Sample], width: Int, height: Int, targetWidth: Int, targetHeight: Int,
                                       _ widen: (Sample) -> Double) -> Raster {
        let columns = weights(from: width, to: targetWidth)
        let rows = weights(from: height, to: targetHeight)
        // Horizontal pass: every source row to targetWidth columns.
        var horizontal = [Double](repeating: 0, count: targetWidth * height)
        for y in 0..<height {
            let row = y * width
            for (x, taps) in columns.enumerated() {
                var sum = 0.0
                for tap in taps { sum += widen(values[row + tap.index]) * tap.weight }
                horizontal[y * targetWidth + x] = sum
            }
        }
        // Vertical pass.
        var result = [Double](repeating: 0, count: targetWidth * targetHeight)
        for (y, taps) in rows.enumerated() {
            for x in 0..<targetWidth {
                var sum = 0.0
                for tap in taps { sum += horizontal[tap.index * targetWidth + x] * tap.weight }
                result[y * targetWidth + x] = sum
            }
        }
        return Raster(width: targetWidth, height: targetHeight, values: result)
    }
}
