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

    /// Both passes keep every output's sum in the order of its taps, as
    /// `weights` lists them, so they round as they always have. What they
    /// change is how many sums are in flight: a sum of products is a chain of
    /// dependent additions, and running one chain at a time left the FPU
    /// waiting on each. The horizontal pass works on four source rows at once
    /// (the same taps, four independent sums); the vertical pass adds each tap
    /// to a whole output row (targetWidth independent sums).
    private static func resize<Sample>(_ values: [Sample], width: Int, height: Int, targetWidth: Int, targetHeight: Int,
                                       _ widen: (Sample) -> Double) -> Raster {
        let columns = FlatTaps(weights(from: width, to: targetWidth))
        let rows = FlatTaps(weights(from: height, to: targetHeight))
        // Horizontal pass: every source row to targetWidth columns.
        var horizontal = [Double](repeating: 0, count: targetWidth * height)
        values.withUnsafeBufferPointer { source in
            horizontal.withUnsafeMutableBufferPointer { out in
                columns.taps.withUnsafeBufferPointer { taps in
                    // Tap indices are below width, so row + index < height * width == source.count.
                    var y = 0
                    while y + 4 <= height {
                        let row = y * width
                        for x in 0..<targetWidth {
                            var s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0
                            for tap in taps[columns.range(x)] {
                                let at = row + tap.index
                                s0 += widen(source[at]) * tap.weight
                                s1 += widen(source[at + width]) * tap.weight
                                s2 += widen(source[at + 2 * width]) * tap.weight
                                s3 += widen(source[at + 3 * width]) * tap.weight
                            }
                            out[y * targetWidth + x] = s0
                            out[(y + 1) * targetWidth + x] = s1
                            out[(y + 2) * targetWidth + x] = s2
                            out[(y + 3) * targetWidth + x] = s3
                        }
                        y += 4
                    }
                    for y in y..<height {
                        for x in 0..<targetWidth {
                            var sum = 0.0
                            for tap in taps[columns.range(x)] { sum += widen(source[y * width + tap.index]) * tap.weight }
                            out[y * targetWidth + x] = sum
                        }
                    }
                }
            }
        }
        // Vertical pass: each output row is the sum of the weighted source
        // rows, added tap by tap, starting from 0 as every sum above does.
        var result = [Double](repeating: 0, count: targetWidth * targetHeight)
        horizontal.withUnsafeBufferPointer { horizontal in
            result.withUnsafeMutableBufferPointer { result in
                rows.taps.withUnsafeBufferPointer { taps in
                    // Tap indices are below height: index * targetWidth + x < horizontal.count.
                    for y in 0..<targetHeight {
                        for tap in taps[rows.range(y)] {
                            let from = tap.index * targetWidth, to = y * targetWidth
                            for x in 0..<targetWidth { result[to + x] += horizontal[from + x] * tap.weight }
                        }
                    }
                }
            }
        }
        return Raster(width: targetWidth, height: targetHeight, values: result)
    }

    /// The taps of one axis in one array, output i's at `range(i)`, so the
    /// hot loops read them from one buffer instead of an array per output.
    private struct FlatTaps {
        var taps: [(index: Int, weight: Double)] = []
        var starts: [Int] = [0]

        init(_ perOutput: [[(index: Int, weight: Double)]]) {
            for outputTaps in perOutput {
                taps += outputTaps
                starts.append(taps.count)
            }
        }

        func range(_ output: Int) -> Range<Int> { starts[output]..<starts[output + 1] }
    }
}
