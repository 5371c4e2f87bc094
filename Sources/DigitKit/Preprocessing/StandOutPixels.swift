/// Steps 3 and 6 (`BackgroundStage`, `StandOutInkStage`): how far each pixel
/// lies from the background surface, and the pixels in the region that stand
/// out from it by more than the noise threshold, below it (dark) and above it
/// (light).
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

    /// The residual of every pixel in millionths of a grey level, as whole
    /// numbers: the residual is rounded to a millionth of a level because a
    /// flat background's surface carries noise in its last bits, and
    /// without the rounding a pixel exactly at the threshold would fall on
    /// either side depending on summation order (and so differ from the
    /// numpy reference). The residual in levels is `level(_:)` of its
    /// whole number, the same Double as the rounded value divided by 10^6;
    /// every comparison but the last is made on the whole numbers, which
    /// take half the memory of Doubles (a 400x400 picture's fit in the
    /// second-level cache) and need no division. `raster` and `surface`
    /// hold grey levels 0-255, as every analysis raster does (it is made of
    /// a picture's bytes), so a residual's millionths stay within ±2.55 *
    /// 10^8, well inside Int32 and `wholeNearest`'s range.
    static func microResiduals(_ raster: Raster, surface: BackgroundSurface) -> [Int32] {
        // A plain loop over buffers, which the compiler vectorizes (zip and
        // map did not; docs/decisions.md, "Plain loops"); the surface's levels
        // are made row by row as they are needed, not read from a
        // picture-sized copy.
        let width = raster.width, count = raster.values.count
        precondition(surface.width == width && surface.height == raster.height)
        return [Int32](unsafeUninitializedCapacity: count) { out, initialized in
            raster.values.withUnsafeBufferPointer { values in
                surface.withRows { y, above, below, fraction in
                    let row = values.baseAddress! + y * width, residuals = out.baseAddress! + y * width
                    for x in 0..<width {
                        residuals[x] = wholeNearest((row[x] - BackgroundSurface.level(above[x], below[x], fraction)) * 1e6)
                    }
                }
            }
            initialized = count
        }
    }

    /// A residual in grey levels from its whole number of millionths.
    @inline(__always)
    static func level(_ micro: Int32) -> Double { Double(micro) / 1e6 }

    /// `x.rounded(.toNearestOrEven)` as an Int32, for |x| < 2^31: adding
    /// 1.5 * 2^52 leaves no bits below the units, so the sum is rounded to a
    /// whole number, ties to even (as numpy's round), and its lowest 32 bits
    /// hold that number in two's complement. On x86-64 without SSE4.1 (the
    /// baseline Swift builds for), `rounded` is a call to libm's rint in
    /// every iteration, and a conversion to Int32 checks its range: either
    /// kept the loop from being vectorized.
    @inline(__always)
    static func wholeNearest(_ x: Double) -> Int32 {
        Int32(truncatingIfNeeded: (x + 6_755_399_441_055_744.0).bitPattern)  // + 1.5 * 2^52
    }

    /// The pixels of `raster` in `region` beyond the noise threshold of
    /// their residuals from `surface`, the threshold measured on the pixels
    /// in `noiseRegion` (by default `region`; a tight crop's paper alone,
    /// see `TightCrop`).
    init(_ raster: Raster, surface: BackgroundSurface, region: PaperRegion, noiseRegion: PaperRegion? = nil) {
        width = raster.width
        height = raster.height
        let residuals = Self.microResiduals(raster, surface: surface)
        let threshold = Self.noiseThreshold(residuals, region: noiseRegion ?? region)
        self.threshold = threshold
        // Beyond the threshold means at least `beyond` millionths either side.
        let beyond = Self.leastBeyond(threshold)
        let found = residuals.withUnsafeBufferPointer { residuals in
            let beyondIndices = Self.indicesBeyond(beyond, in: residuals, region: region)
            return (dark: Self.side(beyondIndices, of: residuals, dark: true, threshold: threshold),
                    light: Self.side(beyondIndices, of: residuals, dark: false, threshold: threshold))
        }
        dark = found.dark
        light = found.light
    }

    /// The indices of the residuals in the region of at least `beyond`
    /// millionths either side, in increasing order.
    ///
    /// Most pixels lie within the threshold: eight at a time are tested
    /// together first, and only a group with a pixel beyond it is taken
    /// apart, each of its indices written over the next slot and the count
    /// raised only for those beyond: no branch on the values, and no array
    /// growing one element at a time (docs/decisions.md, "Stand-out pixels").
    static func indicesBeyond(_ beyond: Int32, in residuals: UnsafeBufferPointer<Int32>, region: PaperRegion) -> [Int] {
        let above = SIMD8(repeating: beyond), below = SIMD8(repeating: -beyond)
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: residuals.count + 1) { slots in
            var count = 0
            @inline(__always) func take(_ index: Int, inRegion: Bool) {
                let micro = residuals[index]
                slots[count] = Int32(truncatingIfNeeded: index)
                let within = (micro &- beyond) >> 31 & (-beyond &- micro) >> 31  // -1 within the threshold, else 0
                count &+= Int(within &+ 1) & (inRegion ? 1 : 0)
            }
            if let mask = region.mask {
                forEachIndex(in: residuals, inGroupsWhere: { any(($0 .>= above) .| ($0 .<= below)) }) { take($0, inRegion: mask[$0]) }
            } else {
                forEachIndex(in: residuals, inGroupsWhere: { any(($0 .>= above) .| ($0 .<= below)) }) { take($0, inRegion: true) }
            }
            // An empty result as a plain empty array: filling one made with
            // capacity 0 writes the count of the one empty-array object all
            // threads share (harmless, but ThreadSanitizer reports it).
            guard count > 0 else { return [] }
            return [Int](unsafeUninitializedCapacity: count) { out, initialized in
                for i in 0..<count { out[i] = Int(slots[i]) }
                initialized = count
            }
        }
    }

    /// The pixels among `indices` on one side of the surface (below it,
    /// `dark`, or above it), with their levels beyond it (the residual,
    /// negated on the dark side) and their summed weight, in order.
    private static func side(_ indices: [Int], of residuals: UnsafeBufferPointer<Int32>, dark: Bool, threshold: Double) -> Side {
        var count = 0
        for index in indices where (residuals[index] < 0) == dark { count += 1 }
        guard count > 0 else { return Side() }  // no array filled at capacity 0: see indicesBeyond
        let mine = [Int](unsafeUninitializedCapacity: count) { out, initialized in
            var next = 0
            for index in indices where (residuals[index] < 0) == dark {
                out[next] = index
                next += 1
            }
            initialized = count
        }
        // level(-m) is -level(m) exactly: negation does not round. One loop of
        // divisions, which vectorizes, rather than one in the loop that finds them.
        let levels = [Double](unsafeUninitializedCapacity: count) { out, initialized in
            for i in 0..<count {
                let micro = residuals[mine[i]]
                out[i] = level(dark ? -micro : micro)
            }
            initialized = count
        }
        // Summed in order, as the numpy reference sums them.
        var weight = 0.0
        for level in levels { weight += level - threshold }
        return Side(indices: mine, levels: levels, weight: weight)
    }

    /// The least number of millionths whose level exceeds `threshold`:
    /// a residual m lies beyond the threshold on one side or the other
    /// when |m| is at least this (the division in `level` is monotone).
    static func leastBeyond(_ threshold: Double) -> Int32 {
        // A threshold of levels 0-255 is at most 3 x 1.4826 x 255 (1134.2):
        // the cutoff and every residual's millionths, added, stay within Int32.
        precondition(threshold >= 0 && threshold <= 1200)
        var least = Int32(max(0, (threshold * 1e6).rounded(.down) - 2))
        while level(least) <= threshold { least += 1 }
        return least
    }

    /// Calls `body`, in increasing order, with the index of every value in
    /// each group of eight (from the first value on) for which
    /// `mayHoldOne` holds, and of every value after the last whole group:
    /// a filter whose test is rare passes over most values eight at a time.
    @inline(__always)
    static func forEachIndex(in values: UnsafeBufferPointer<Int32>, inGroupsWhere mayHoldOne: (SIMD8<Int32>) -> Bool,
                             _ body: (Int) -> Void) {
        let groups = values.count / 8
        let raw = UnsafeRawPointer(values.baseAddress)
        for group in 0..<groups {
            let start = group &* 8
            guard mayHoldOne(raw!.loadUnaligned(fromByteOffset: start &* 4, as: SIMD8<Int32>.self)) else { continue }
            for index in start..<(start &+ 8) { body(index) }
        }
        for index in (groups &* 8)..<values.count { body(index) }
    }

    /// The least threshold, and how many sigma of noise it is.
    static let minimumThreshold = 8.0, sigmas = 3.0

    /// max(8, 3 sigma) with sigma = 1.4826 times the lower median of the
    /// magnitudes of the residuals (`level` of each whole number) in the region.
    ///
    /// Most pictures' noise is well under the least threshold: one pass
    /// counts the magnitudes of at most `quietMillionths` (those whose 3
    /// sigma is at most 8), and when they are more than the lower median's
    /// rank, so is the median, and the threshold is 8 without ranking a
    /// value. Otherwise the median is found from a histogram of them all
    /// (`histogramMedian`).
    static func noiseThreshold(_ residuals: [Int32], region: PaperRegion) -> Double {
        residuals.withUnsafeBufferPointer { residuals in
            // The usual case first: when more magnitudes than the median's
            // rank are quiet, so is the median, and the threshold is the
            // least one. That is a count, which vectorizes; the
            // histogram's scattered increments do not.
            var quietCount = 0, count = 0
            if let mask = region.mask {
                // The lazy static read once: read in the loop, its
                // initialization check ran for every pixel.
                let quiet = quietMillionths
                for index in residuals.indices where mask[index] {
                    quietCount &+= isQuiet(residuals[index], quiet: quiet)
                    count &+= 1
                }
            } else {
                quietCount = countQuiet(residuals)
                count = residuals.count
            }
            guard count > 0 else { return minimumThreshold }
            let rank = RobustStatistics.rank(of: 0.5, count: count)
            if quietCount > rank { return minimumThreshold }
            return max(minimumThreshold, sigmas * 1.4826 * histogramMedian(residuals, region: region, rank: rank))
        }
    }

    /// 1 when the residual's magnitude is at most `quietMillionths`, else 0,
    /// with no branch, so that noise mispredicts nothing and the count
    /// vectorizes (docs/decisions.md, "Stand-out pixels").
    @inline(__always)
    static func isQuiet(_ residual: Int32, quiet: UInt32 = quietMillionths) -> Int {
        Int((Int64(quiet) &- Int64(residual.magnitude)) >> 63 &+ 1)
    }

    /// How many residuals are quiet (`isQuiet`), eight at a time: each lane
    /// gathers -1 for every loud one (a picture has far fewer than 2^31
    /// pixels, so no sum wraps); written out, as `isQuiet` in a loop did
    /// not vectorize well.
    private static func countQuiet(_ residuals: UnsafeBufferPointer<Int32>) -> Int {
        let quiet = SIMD8(repeating: Int32(bitPattern: quietMillionths))
        var negativeLoud = SIMD8<Int32>.zero
        let groups = residuals.count / 8
        let raw = UnsafeRawPointer(residuals.baseAddress)
        for group in 0..<groups {
            let eight = raw!.loadUnaligned(fromByteOffset: group &* 32, as: SIMD8<Int32>.self)
            // quiet - |x|, both below 2^31, is negative when |x| is loud.
            negativeLoud &+= (quiet &- magnitudes(eight)) &>> 31
        }
        var quietCount = groups &* 8 &+ Int(negativeLoud.wrappedSum())
        for index in (groups &* 8)..<residuals.count { quietCount &+= isQuiet(residuals[index]) }
        return quietCount
    }

    /// The magnitudes of eight residuals, as (x ^ sign) - sign (all below
    /// 2^31: residuals of levels 0-255 are far from Int32.min).
    /// `replacing(with:where:)` went lane by lane through memory.
    @inline(__always)
    static func magnitudes(_ eight: SIMD8<Int32>) -> SIMD8<Int32> {
        let sign = eight &>> 31
        return (eight ^ sign) &- sign
    }

    /// The bin of a magnitude in millionths: bins are monotone in the
    /// magnitude, so the value of a given rank lies in the bin where the
    /// running count of the bins passes that rank.
    @inline(__always)
    static func bin(_ magnitude: Int32) -> Int { min(Int(magnitude) >> binShift, bins - 1) }

    /// The magnitude of rank `rank` among the residuals in the region (as
    /// a level), from a histogram of them all: the bin that holds it is
    /// found, and only its magnitudes, a few hundred of a noisy photo's
    /// 160,000, are ranked.
    static func histogramMedian(_ residuals: UnsafeBufferPointer<Int32>, region: PaperRegion, rank: Int) -> Double {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 4 * bins) { tallies in
            // Four interleaved tallies, summed after: neighbouring pixels
            // often share a bin, and one tally made each count wait for
            // the one before it. Bins this narrow leave a few hundred
            // magnitudes in the median's bin, so the pass that gathers
            // them passes over most groups of eight.
            tallies.initialize(repeating: 0)
            if let mask = region.mask {
                for index in residuals.indices where mask[index] {
                    tallies[(index & 3) &* bins &+ bin(Int32(bitPattern: residuals[index].magnitude))] &+= 1
                }
            } else {
                countBins(residuals, into: tallies)
            }
            let counts = UnsafeMutableBufferPointer(rebasing: tallies[0..<bins])
            for b in 0..<bins { counts[b] = tallies[b] &+ tallies[bins + b] &+ tallies[2 * bins + b] &+ tallies[3 * bins + b] }
            var target = 0, below = 0
            while below + Int(counts[target]) <= rank {
                below += Int(counts[target])
                target += 1
            }
            var kept: [Double] = []
            kept.reserveCapacity(Int(counts[target]))
            let low = SIMD8(repeating: Int32(target << binShift))
            let high = SIMD8(repeating: target == bins - 1 ? Int32.max : Int32(((target + 1) << binShift) - 1))
            forEachIndex(in: residuals, inGroupsWhere: { eight in
                let magnitudes = magnitudes(eight)
                return any((magnitudes .>= low) .& (magnitudes .<= high))
            }) { index in
                let magnitude = Int32(bitPattern: residuals[index].magnitude)
                if bin(magnitude) == target && region.contains(index) { kept.append(level(magnitude)) }
            }
            return RobustStatistics.select(&kept, rank: rank - below)
        }
    }

    /// Counts the bin of every residual in the four interleaved tallies
    /// (`bins` apart): a block's bins are computed eight at a time
    /// first, then counted four at a time, one to each tally, which keeps
    /// the counting loop short (docs/decisions.md, "Stand-out pixels").
    private static func countBins(_ residuals: UnsafeBufferPointer<Int32>, into tallies: UnsafeMutableBufferPointer<UInt32>) {
        let blockGroups = 256, last = SIMD8(repeating: Int32(bins - 1))
        let groups = residuals.count / 8
        let raw = UnsafeRawPointer(residuals.baseAddress)
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: blockGroups * 8) { binsOfBlock in
            let block = UnsafeMutableRawPointer(binsOfBlock.baseAddress!)
            var group = 0
            while group < groups {
                let end = min(groups, group &+ blockGroups)
                for g in group..<end {
                    let eight = raw!.loadUnaligned(fromByteOffset: g &* 32, as: SIMD8<Int32>.self)
                    let bins = pointwiseMin(magnitudes(eight) &>> Int32(binShift), last)
                    block.storeBytes(of: bins, toByteOffset: (g &- group) &* 32, as: SIMD8<Int32>.self)
                }
                for i in Swift.stride(from: 0, to: (end &- group) &* 8, by: 4) {
                    tallies[Int(binsOfBlock[i])] &+= 1
                    tallies[bins &+ Int(binsOfBlock[i &+ 1])] &+= 1
                    tallies[2 &* bins &+ Int(binsOfBlock[i &+ 2])] &+= 1
                    tallies[3 &* bins &+ Int(binsOfBlock[i &+ 3])] &+= 1
                }
                group = end
            }
        }
        for index in (groups &* 8)..<residuals.count { tallies[bin(Int32(bitPattern: residuals[index].magnitude))] &+= 1 }
    }

    /// `histogramMedian`'s bins: 2^binShift millionths of a level each
    /// (about a 61st), enough for any magnitude of levels 0-255.
    static let binShift = 14, bins = 16384

    /// The largest magnitude, in millionths, whose 3 sigma (computed as
    /// `noiseThreshold` computes it) is at most `minimumThreshold`: a
    /// median at or below it gives the least threshold.
    static let quietMillionths: UInt32 = {
        let factor = sigmas * 1.4826
        var m = UInt32(minimumThreshold / factor * 1e6)
        while factor * level(Int32(m)) > minimumThreshold { m -= 1 }
        while factor * level(Int32(m + 1)) <= minimumThreshold { m += 1 }
        return m
    }()

    /// The pixels on the ink's side.
    func ink(isDark: Bool) -> Side { isDark ? dark : light }
}
