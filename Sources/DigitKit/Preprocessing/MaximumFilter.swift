/// A square maximum filter (a grey dilation by a square): each value becomes
/// the largest within `radius` pixels along rows and columns, edges clamped.
/// It widens the rules' ink by half a locator pixel where `LocatedInk.coverage`
/// asks how much of the located ink that explains (the fallback branch of
/// step 8); `LocatedInk.nearInk` needs only a mask and counts instead.
enum MaximumFilter {
    /// The filter, separable and in constant time a pixel whatever the
    /// radius (van Herk and Gil-Werman): each line is padded with `radius`
    /// pixels of -infinity on both sides and cut into blocks of the
    /// window's length; a window then spans at most two blocks, and its
    /// maximum is the one of its first block's suffix and its last block's
    /// prefix. Equal to `plain(_:radius:)`, which the tests check.
    static func square(_ raster: Raster, radius: Int) -> Raster {
        guard radius > 0 else { return raster }
        let width = raster.width, height = raster.height
        let window = 2 * radius + 1
        let padded = max(width, height) + 2 * radius
        var values = raster.values
        var line = [Double](repeating: 0, count: padded)
        var prefix = line, suffix = line
        values.withUnsafeMutableBufferPointer { values in
            line.withUnsafeMutableBufferPointer { line in
                prefix.withUnsafeMutableBufferPointer { prefix in
                    suffix.withUnsafeMutableBufferPointer { suffix in
                        // Filters the `count` values from `start`, `stride` apart, in place.
                        func filter(start: Int, stride: Int, count: Int) {
                            let length = count + 2 * radius
                            for i in 0..<radius {
                                line[i] = -.infinity
                                line[radius + count + i] = -.infinity
                            }
                            for i in 0..<count { line[radius + i] = values[start + i * stride] }
                            var blockStart = 0
                            while blockStart < length {
                                let blockEnd = min(blockStart + window, length)
                                prefix[blockStart] = line[blockStart]
                                for j in (blockStart + 1)..<blockEnd { prefix[j] = max(prefix[j - 1], line[j]) }
                                suffix[blockEnd - 1] = line[blockEnd - 1]
                                var j = blockEnd - 2
                                while j >= blockStart {
                                    suffix[j] = max(suffix[j + 1], line[j])
                                    j -= 1
                                }
                                blockStart = blockEnd
                            }
                            for i in 0..<count { values[start + i * stride] = max(suffix[i], prefix[i + 2 * radius]) }
                        }
                        for y in 0..<height { filter(start: y * width, stride: 1, count: width) }
                        for x in 0..<width { filter(start: x, stride: width, count: height) }
                    }
                }
            }
        }
        return Raster(width: width, height: height, values: values)
    }

    /// The same filter written plainly, a window's maximum at a time: the
    /// twin `square(_:radius:)` is tested against.
    static func plain(_ raster: Raster, radius: Int) -> Raster {
        func pass(_ source: [Double], count: Int, lines: Int, at index: (Int, Int) -> Int) -> [Double] {
            var out = source
            for line in 0..<lines {
                for i in 0..<count {
                    var best = -Double.infinity
                    for j in max(0, i - radius)...min(count - 1, i + radius) { best = max(best, source[index(line, j)]) }
                    out[index(line, i)] = best
                }
            }
            return out
        }
        let w = raster.width, h = raster.height
        let rows = pass(raster.values, count: w, lines: h) { y, x in y * w + x }
        return Raster(width: w, height: h, values: pass(rows, count: h, lines: w) { x, y in y * w + x })
    }
}
