/// Step 2c: how far each pixel lies from the background surface, and the
/// pixels in the region that stand out from it by more than the noise
/// threshold, below it (dark) and above it (light).
///
/// Polarity detection, the stroke-width estimate and ink extraction all
/// read these; keeping only the pixels beyond the threshold (a small part of
/// a picture: the ink, and on the wrong side some paper texture) spares
/// them a pass over the whole picture each.
struct StandOutPixels {
    /// The pixels beyond the threshold on one side of the surface, row-major.
    struct Side {
        /// Pixel indices, y * width + x.
        var indices: [Int] = []
        /// How far each pixel lies beyond the surface (the residual, negated
        /// on the dark side): always more than the threshold.
        var levels: [Double] = []
        /// The sum of (level - threshold), in row-major order.
        var weight = 0.0
    }

    let width: Int, height: Int
    /// The noise threshold: 3 sigma of the residuals in the region (sigma
    /// from their median absolute value), at least 8 grey levels.
    let threshold: Double
    /// Below the surface: dark ink on light paper.
    private(set) var dark = Side()
    /// Above the surface: light ink on dark paper.
    private(set) var light = Side()

    /// The residual of every pixel, rounded to a millionth of a grey level:
    /// a flat background's surface carries noise in its last bits, and
    /// without the rounding a pixel exactly at the threshold would fall on
    /// either side depending on summation order (and so differ from the
    /// numpy reference).
    static func residuals(_ raster: Raster, surface: BackgroundSurface) -> [Double] {
        // Ties go to even, as numpy's round does. A plain loop over buffers,
        // which the compiler vectorizes (zip and map did not, and took a
        // third of this step).
        let count = raster.values.count
        return [Double](unsafeUninitializedCapacity: count) { out, initialized in
            raster.values.withUnsafeBufferPointer { values in
                surface.levels.values.withUnsafeBufferPointer { levels in
                    for i in 0..<count { out[i] = roundedToEven((values[i] - levels[i]) * 1e6) / 1e6 }
                }
            }
            initialized = count
        }
    }

    /// `x.rounded(.toNearestOrEven)` for |x| < 2^51, up to the sign of a
    /// zero: adding 1.5 * 2^52 leaves no bits below the units, so the sum is
    /// rounded to a whole number, ties to even, and subtracting it back is
    /// exact. On x86-64 without SSE4.1 (the baseline Swift builds for),
    /// `rounded` is a call to libm's rint in every iteration, which also
    /// kept the loop from being vectorized. Residuals times 10^6 stay under
    /// 2.6 * 10^8.
    @inline(__always)
    static func roundedToEven(_ x: Double) -> Double {
        let magic = 6_755_399_441_055_744.0  // 1.5 * 2^52
        return (x + magic) - magic
    }

    init(_ raster: Raster, surface: BackgroundSurface, region: PaperRegion) {
        width = raster.width
        height = raster.height
        let residuals = Self.residuals(raster, surface: surface)
        self.threshold = Self.noiseThreshold(residuals, region: region)
        let threshold = self.threshold
        var dark = Side(), light = Side()
        // Most pixels lie within the threshold: eight at a time are tested
        // together first, and only a group with a pixel beyond it is taken
        // apart (one by one, the test was a pass as long as the residuals').
        Self.forEachBeyond(threshold, in: residuals) { index in
            let residual = residuals[index]
            guard region.contains(index) else { return }
            if -residual > threshold {
                dark.indices.append(index)
                dark.levels.append(-residual)
                dark.weight += -residual - threshold
            } else if residual > threshold {
                light.indices.append(index)
                light.levels.append(residual)
                light.weight += residual - threshold
            }
        }
        self.dark = dark
        self.light = light
    }

    /// Calls `body` with the index of every value of `values` whose
    /// magnitude exceeds `bound` (and with some others: `body` tests each
    /// index itself), in increasing order.
    @inline(__always)
    static func forEachBeyond(_ bound: Double, in values: [Double], _ body: (Int) -> Void) {
        let above = SIMD8(repeating: bound), below = SIMD8(repeating: -bound)
        values.withUnsafeBufferPointer { buffer in
            forEachIndex(in: buffer, inGroupsWhere: { any(($0 .> above) .| ($0 .< below)) }, body)
        }
    }

    /// Calls `body`, in increasing order, with the index of every value in
    /// each group of eight (from the first value on) for which
    /// `mayHoldOne` holds, and of every value after the last whole group:
    /// a filter whose test is rare passes over most values eight at a time.
    @inline(__always)
    static func forEachIndex(in values: UnsafeBufferPointer<Double>, inGroupsWhere mayHoldOne: (SIMD8<Double>) -> Bool,
                             _ body: (Int) -> Void) {
        let groups = values.count / 8
        let raw = UnsafeRawPointer(values.baseAddress)
        for group in 0..<groups {
            let start = group &* 8
            guard mayHoldOne(raw!.loadUnaligned(fromByteOffset: start &* 8, as: SIMD8<Double>.self)) else { continue }
            for index in start..<(start &+ 8) { body(index) }
        }
        for index in (groups &* 8)..<values.count { body(index) }
    }

    /// The least threshold, and how many sigma of noise it is.
    static let minimumThreshold = 8.0, sigmas = 3.0

    /// max(8, 3 sigma) with sigma = 1.4826 times the lower median of the
    /// residuals' magnitudes in the region.
    ///
    /// The magnitudes fall in bins of a 64th of a grey level (bin k holds
    /// 64 m rounded to k, ties to even; the last bin takes everything above
    /// 16382.5 / 64). Most pictures' noise is well under the least
    /// threshold: one pass counts the magnitudes in the bins that lie
    /// wholly at or below 8 / (3 * 1.4826) (`quietBins`), and when they
    /// are more than the lower median's rank, so is the median, and the threshold is 8
    /// without ranking a value. Otherwise a second pass counts every bin,
    /// finds the one that holds the median and ranks only its magnitudes,
    /// a few hundred of a noisy photo's 160,000. The bins are monotone in
    /// the magnitude, so the median is the one a selection over all would
    /// find.
    static func noiseThreshold(_ residuals: [Double], region: PaperRegion) -> Double {
        let factor = sigmas * 1.4826
        // The bin from the bits of the rounded value (roundedToEven's sum
        // holds it in its lowest bits): no conversion to Int, whose range
        // checks were most of this pass.
        @inline(__always) func bin(_ residual: Double) -> Int {
            let scaled = min(abs(residual) * binsPerLevel, Double(bins - 1)) + 4_503_599_627_370_496.0  // + 2^52
            return Int(truncatingIfNeeded: scaled.bitPattern) & (bins - 1)
        }
        return residuals.withUnsafeBufferPointer { residuals in
            // The usual case first: when more magnitudes than the median's
            // rank lie in bins up to `quietBins`, the median's bin is one of them
            // and the threshold is the least one. That is a count, which
            // vectorizes; the histogram's scattered increments do not.
            // isQuiet is 1 when bin(residual) <= quietBins, else 0, with no
            // branch (a comparison compiled to one, mispredicted on noise).
            let quietBins = Self.quietBins
            @inline(__always) func isQuiet(_ residual: Double) -> Int { (quietBins &- bin(residual)) >> 63 &+ 1 }
            var quiet = 0, count = 0
            if let mask = region.mask {
                for index in residuals.indices where mask[index] {
                    quiet &+= isQuiet(residuals[index])
                    count &+= 1
                }
            } else {
                for residual in residuals { quiet &+= isQuiet(residual) }
                count = residuals.count
            }
            guard count > 0 else { return minimumThreshold }
            if quiet > RobustStatistics.rank(of: 0.5, count: count) { return minimumThreshold }
            return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 2 * bins) { tallies in
                // Two interleaved tallies, summed after: neighbouring pixels
                // often share a bin, and one tally made each count wait for
                // the one before it. Bins of a 64th of a level rather than an
                // eighth: the median's bin then holds a few hundred
                // magnitudes, not a few thousand, and the pass that gathers
                // them passes over most groups of eight (on a noisy 400x400
                // photo this step took 0.2 ms less; the tallies, 128 KiB,
                // still mostly stay in the caches).
                tallies.initialize(repeating: 0)
                if let mask = region.mask {
                    for index in residuals.indices where mask[index] {
                        tallies[(index & 1) &* bins &+ bin(residuals[index])] &+= 1
                    }
                } else {
                    for index in residuals.indices { tallies[(index & 1) &* bins &+ bin(residuals[index])] &+= 1 }
                }
                let counts = UnsafeMutableBufferPointer(rebasing: tallies[0..<bins])
                for b in 0..<bins { counts[b] = tallies[b] &+ tallies[bins + b] }
                let rank = RobustStatistics.rank(of: 0.5, count: count)
                var target = 0, below = 0
                while below + Int(counts[target]) <= rank {
                    below += Int(counts[target])
                    target += 1
                }
                // The bin's magnitudes lie within half a bin of its middle
                // (the last bin: from half a bin below it up): the others
                // are passed over eight at a time.
                var kept: [Double] = []
                kept.reserveCapacity(Int(counts[target]))
                let low = SIMD8(repeating: (Double(target) - 0.5) / binsPerLevel)
                let high = SIMD8(repeating: target == bins - 1 ? Double.infinity : (Double(target) + 0.5) / binsPerLevel)
                forEachIndex(in: residuals, inGroupsWhere: { eight in
                    let magnitudes = eight.replacing(with: -eight, where: eight .< 0)
                    return any((magnitudes .>= low) .& (magnitudes .<= high))
                }) { index in
                    if bin(residuals[index]) == target && region.contains(index) { kept.append(abs(residuals[index])) }
                }
                return max(minimumThreshold, factor * RobustStatistics.select(&kept, rank: rank - below))
            }
        }
    }

    /// Bins per grey level in `noiseThreshold`'s histogram, and the bins.
    static let binsPerLevel = 64.0, bins = 16384

    /// The last bin whose magnitudes give the least threshold: the largest
    /// k with 3 sigma of (k + 0.5) / binsPerLevel (the bin's upper edge) at
    /// most `minimumThreshold`, computed as `noiseThreshold` computes sigma.
    static let quietBins: Int = {
        let factor = sigmas * 1.4826
        var k = 0
        while factor * (Double(k + 1) + 0.5) / binsPerLevel <= minimumThreshold { k += 1 }
        return k
    }()

    /// The pixels on the ink's side.
    func ink(isDark: Bool) -> Side { isDark ? dark : light }
}
