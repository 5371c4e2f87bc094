/// Order statistics with one fixed definition, shared by every step (and by
/// the Python reference): the lower median and nearest-rank-below percentiles.
enum RobustStatistics {
    /// sorted[(n - 1) / 2]; 0 for no values.
    static func lowerMedian(_ values: [Double]) -> Double {
        percentile(values, 0.5)
    }

    /// `lowerMedian` of values in a buffer the caller lets it reorder; 0 for none.
    static func lowerMedian(reordering values: UnsafeMutableBufferPointer<Double>) -> Double {
        values.isEmpty ? 0 : select(values, rank: rank(of: 0.5, count: values.count))
    }

    /// sorted[floor(q * (n - 1))] for q in [0, 1]; 0 for no values. Found by
    /// selection in linear time, without sorting: a noisy 400x400 picture's
    /// noise level ranks 160,000 residuals, and every background cell its
    /// pixels.
    static func percentile(_ values: [Double], _ q: Double) -> Double {
        var work = values
        return percentile(reordering: &work, q)
    }

    /// `percentile(values, q)` for a caller whose values are a scratch copy
    /// already: ranks them in place instead of copying them again.
    static func percentile(reordering values: inout [Double], _ q: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        return select(&values, rank: rank(of: q, count: values.count))
    }

    /// floor(q * (count - 1)): the rank `percentile` reads.
    static func rank(of q: Double, count: Int) -> Int {
        Int((q * Double(count - 1)).rounded(.down))
    }

    /// The value that would stand at `rank` if `values` were sorted, found
    /// without sorting (see the buffer version); may reorder `values`.
    static func select(_ values: inout [Double], rank: Int) -> Double {
        precondition(values.indices.contains(rank))
        return values.withUnsafeMutableBufferPointer { select($0, rank: rank) }
    }

    /// `select` on a buffer, the hottest part of the background fit. Ranking
    /// picture values by comparisons is bound by mispredicted branches (half
    /// of all comparisons go either way), so large inputs are first narrowed
    /// down by counting, which does not branch on the values: a radix
    /// selection on the bits of the values, `radixBits` at a time from the
    /// top, keeps only the values whose leading bits are those of the value
    /// sought, until few are left for quickselect. The value found is the one
    /// sorting would put at `rank`, however it is found. `values` may be
    /// reordered.
    static func select(_ values: UnsafeMutableBufferPointer<Double>, rank: Int) -> Double {
        precondition(values.indices.contains(rank) && values.count <= UInt32.max)
        return select(values, rank: rank, shift: 64 - radixBits)
    }

    /// Below this many values quickselect alone is as fast.
    static let radixMinimum = 256
    /// Bits per radix digit: 4 x 2,048 counters of 4 bytes, 32 KiB.
    static let radixBits = 11

    /// An unsigned integer that orders like the double: the sign bit flipped
    /// for positive values, every bit flipped for negative ones.
    @inline(__always)
    static func radixKey(_ value: Double) -> UInt64 {
        let bits = value.bitPattern
        let negative = UInt64(bitPattern: Int64(bitPattern: bits) >> 63)  // all ones or all zeros
        return bits ^ (negative | 1 << 63)
    }

    /// Selection among `values`, whose radix keys agree above bit `shift +
    /// radixBits`: counts the values by their digit at `shift`, and goes on
    /// with a copy of those whose digit is that of the value at `rank`.
    /// Smaller digits mean smaller values, so the values with smaller digits
    /// than the sought one are all below it.
    private static func select(_ values: UnsafeMutableBufferPointer<Double>, rank: Int, shift: Int) -> Double {
        if values.count == 9 && rank == 4 { return medianOfNine(values) }
        if values.count <= countingMaximum { return countedSelect(values, rank: rank) }
        guard values.count >= radixMinimum, shift >= 0 else { return quickselect(values, rank: rank) }
        let digits = 1 << radixBits, mask = UInt64(digits - 1)
        @inline(__always) func digit(_ value: Double) -> Int {
            Int(truncatingIfNeeded: radixKey(value) &>> UInt64(shift) & mask)  // 0 <= shift < 64: no shift needs the masking
        }
        let (target, below, count) = withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 4 * digits) { counts in
            // Four interleaved tallies: on values that mostly share a digit,
            // one tally would make each count wait for the one before it.
            counts.initialize(repeating: 0)
            let quads = values.count / 4
            for q in 0..<quads {
                let i = 4 * q  // i + 3 < values.count
                counts[digit(values[i])] &+= 1
                counts[digits + digit(values[i + 1])] &+= 1
                counts[2 * digits + digit(values[i + 2])] &+= 1
                counts[3 * digits + digit(values[i + 3])] &+= 1
            }
            for i in (4 * quads)..<values.count { counts[digit(values[i])] &+= 1 }  // no count wraps: values.count <= UInt32.max
            var below = 0, target = 0
            while true {  // ends at the last digit at the latest: the counts add up to values.count > rank
                let count = Int(counts[target]) + Int(counts[digits + target]) + Int(counts[2 * digits + target]) + Int(counts[3 * digits + target])
                if below + count > rank { return (target, below, count) }
                below += count
                target += 1
            }
        }
        if count == values.count {
            // All share this digit. If they are all the same value (the ring
            // of a flat, clean background), no digit below will tell them
            // apart either: stop here rather than count them five times more.
            let first = values[0].bitPattern
            if values.allSatisfy({ $0.bitPattern == first }) { return values[0] }
            return select(values, rank: rank, shift: shift - radixBits)
        }
        // The copy writes every value and advances only past those with the
        // target digit, so it writes at most one slot past the `count` kept:
        // hence count + 1. It must not branch on the values: written as a
        // comparison, the step became a branch, mispredicted for a good part of
        // the values and 3x slower. (d - 1) >> 63 is -1 (all ones) for d = 0 and
        // 0 for 0 < d < 2^63, so the step is 1 exactly when the digits match.
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: count + 1) { kept in
            var end = 0
            for value in values {
                kept[end] = value
                end &+= ((digit(value) ^ target) &- 1) >> 63 & 1
            }
            return select(UnsafeMutableBufferPointer(rebasing: kept[0..<count]), rank: rank - below, shift: shift - radixBits)
        }
    }

    /// The middle one of nine values (a 3x3 window: the paper search's
    /// median filter runs 4,096 of them), by the 19-exchange min/max network
    /// N. Devillard gives as opt_med9 (after J. L. Smith, XCELL 23, 1996):
    /// no branch, and a value of the window, the one sorting would put in
    /// the middle. NaN breaks the order: those windows go to quickselect.
    private static func medianOfNine(_ values: UnsafeMutableBufferPointer<Double>) -> Double {
        guard !values.contains(where: \.isNaN) else { return quickselect(values, rank: 4) }
        let p = values  // nine values, reordered in place
        @inline(__always) func order(_ i: Int, _ j: Int) {
            let low = min(p[i], p[j]), high = max(p[i], p[j])
            p[i] = low
            p[j] = high
        }
        order(1, 2); order(4, 5); order(7, 8); order(0, 1); order(3, 4); order(6, 7)
        order(1, 2); order(4, 5); order(7, 8); order(0, 3); order(5, 8); order(4, 7)
        order(3, 6); order(1, 4); order(2, 5); order(4, 7); order(4, 2); order(6, 4)
        order(4, 2)
        return p[4]
    }

    /// Up to this many values are ranked by counting (`countedSelect`).
    static let countingMaximum = 32

    /// The value at `rank` among a few values (the 3x3 and 5x5 windows of
    /// the paper search and the background cells), found by counting for
    /// each value how many lie below it and how many at or below: the one
    /// whose span holds `rank` is the one sorting would put there. Every
    /// pair is compared, n^2 comparisons that do not branch on the values
    /// and vectorize, where quickselect's scans mispredict on such small
    /// windows (docs/decisions.md, "Ranking small windows"). Values equal in
    /// order (0 and -0) may give the other one than quickselect. A NaN, which
    /// no caller passes (the windows leave NaN out), is neither below nor at
    /// or below any value: the others are ranked as if it were absent, and
    /// only when no candidate fits does quickselect decide.
    private static func countedSelect(_ values: UnsafeMutableBufferPointer<Double>, rank: Int) -> Double {
        // In vectors of four, padded with NaN, which is neither below nor
        // at or below anything: written as a plain loop, the comparisons
        // compiled to branches.
        let chunks = (values.count + 3) / 4
        return withUnsafeTemporaryAllocation(of: SIMD4<Double>.self, capacity: chunks) { vectors in
            vectors.initialize(repeating: SIMD4(repeating: .nan))
            UnsafeMutableRawBufferPointer(vectors).withMemoryRebound(to: Double.self) { lanes in
                for i in values.indices { lanes[i] = values[i] }
            }
            for candidate in values {
                let pivot = SIMD4(repeating: candidate)
                var below = SIMD4<Int64>(), atOrBelow = SIMD4<Int64>()
                for vector in vectors {
                    below.replace(with: below &+ 1, where: vector .< pivot)
                    atOrBelow.replace(with: atOrBelow &+ 1, where: vector .<= pivot)
                }
                if Int(below.wrappedSum()) <= rank && rank < Int(atOrBelow.wrappedSum()) { return candidate }
            }
            return quickselect(values, rank: rank)
        }
    }

    /// Quickselect with a median-of-three pivot.
    ///
    /// Every index stays in low...high (Hoare's argument): the pivot is one of
    /// the values in low...high, so the first scans stop at it at the latest;
    /// after a swap, values[i - 1] <= pivot <= values[j + 1] stop the next
    /// scans. Each round swaps at least once, so the range shrinks.
    private static func quickselect(_ values: UnsafeMutableBufferPointer<Double>, rank: Int) -> Double {
        var low = 0, high = values.count - 1
        while low < high {
            let mid = low + (high - low) / 2
            let pivot = medianOfThree(values[low], values[mid], values[high])
            var i = low, j = high
            while i <= j {
                while values[i] < pivot { i += 1 }
                while values[j] > pivot { j -= 1 }
                if i <= j {
                    values.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if rank <= j { high = j } else if rank >= i { low = i } else { return values[rank] }
        }
        return values[rank]
    }

    /// The middle one of three values.
    @inline(__always)
    static func medianOfThree(_ a: Double, _ b: Double, _ c: Double) -> Double {
        max(min(a, b), min(max(a, b), c))
    }
}
