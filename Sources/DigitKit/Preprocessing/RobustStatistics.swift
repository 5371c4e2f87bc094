/// Order statistics with one fixed definition, shared by every step (and by
/// the Python reference): the lower median and nearest-rank-below percentiles.
enum RobustStatistics {
    /// sorted[(n - 1) / 2]; 0 for no values.
    static func lowerMedian(_ values: [Double]) -> Double {
        percentile(values, 0.5)
    }

    /// sorted[floor(q * (n - 1))] for q in [0, 1]; 0 for no values. Found by
    /// selection in linear time, without sorting: the border ring of a
    /// 400-pixel picture holds 37,500 values and is ranked several times.
    static func percentile(_ values: [Double], _ q: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        var work = values
        return select(&work, rank: Int((q * Double(values.count - 1)).rounded(.down)))
    }

    /// The value that would stand at `rank` if `values` were sorted
    /// (quickselect with a median-of-three pivot; reorders `values`).
    static func select(_ values: inout [Double], rank: Int) -> Double {
        var low = 0, high = values.count - 1
        while low < high {
            let mid = low + (high - low) / 2
            let pivot = [values[low], values[mid], values[high]].sorted()[1]
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
}
