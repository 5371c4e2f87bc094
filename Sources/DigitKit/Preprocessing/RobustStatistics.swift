/// Order statistics with one fixed definition, shared by every step (and by
/// the Python reference): the lower median and nearest-rank-below percentiles.
enum RobustStatistics {
    /// sorted[(n - 1) / 2]; 0 for no values.
    static func lowerMedian(_ values: [Double]) -> Double {
        percentile(values, 0.5)
    }

    /// sorted[floor(q * (n - 1))] for q in [0, 1]; 0 for no values.
    static func percentile(_ values: [Double], _ q: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted[Int((q * Double(sorted.count - 1)).rounded(.down))]
    }
}
