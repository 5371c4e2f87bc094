/// Counts of (true digit, predicted digit) pairs, and the metrics derived
/// from them: accuracy, and precision and recall per digit.
public struct ConfusionMatrix: Equatable, Sendable {
    /// counts[truth][predicted].
    public private(set) var counts: [[Int]] = Array(repeating: Array(repeating: 0, count: 10), count: 10)

    /// An empty matrix: 10 x 10 zero counts.
    public init() {}

    /// Counts one image whose true digit is `truth` and whose prediction is
    /// `predicted`; both must be 0-9, or the array access traps.
    public mutating func add(truth: Int, predicted: Int) {
        counts[truth][predicted] += 1
    }

    /// Images counted.
    public var total: Int { counts.joined().reduce(0, +) }
    /// Images whose prediction is their true digit (the diagonal).
    public var correct: Int { (0..<10).map { counts[$0][$0] }.reduce(0, +) }
    /// correct / total; 0 when empty.
    public var accuracy: Double { total == 0 ? 0 : Double(correct) / Double(total) }

    /// Images whose true digit is `digit`.
    public func support(_ digit: Int) -> Int { counts[digit].reduce(0, +) }
    /// Images predicted as `digit`.
    public func predictedCount(_ digit: Int) -> Int { (0..<10).map { counts[$0][digit] }.reduce(0, +) }

    /// Of the images predicted as `digit`, the share that are `digit`; nil when none was predicted.
    public func precision(_ digit: Int) -> Double? {
        let predicted = predictedCount(digit)
        return predicted == 0 ? nil : Double(counts[digit][digit]) / Double(predicted)
    }

    /// Of the images that are `digit`, the share predicted as `digit`; nil when there are none.
    public func recall(_ digit: Int) -> Double? {
        let support = support(digit)
        return support == 0 ? nil : Double(counts[digit][digit]) / Double(support)
    }
}
