internal import TorchBridgeLoader
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// What the model says about one image.
public struct Prediction: Equatable, Sendable {
    /// One digit and its probability, as ranked in `top(_:)`.
    public struct RankedDigit: Equatable, Sendable {
        /// The digit, 0-9.
        public let digit: Int
        /// The model's probability for `digit`, 0-1.
        public let probability: Double
    }

    /// The model's log-probabilities for digits 0-9.
    public let logProbabilities: [Float]
    /// exp of the log-probabilities of digits 0-9: with `notADigit` they sum to 1.
    public let probabilities: [Double]
    /// The most probable digit.
    public let digit: Int
    /// The probability that the picture is not a digit at all (a letter, a
    /// symbol, a scribble): the rejection class of a model that has one, else 0.
    public let notADigit: Double

    /// The number of classes, the digits 0-9: TorchBridge's TB_CLASS_COUNT
    /// itself, so the two cannot disagree.
    public static let classCount = Int(TB_CLASS_COUNT)
    /// The classes of a model with a rejection class: the digits, then "not a digit".
    public static let classCountWithRejection = Int(TB_CLASS_COUNT_WITH_REJECTION)

    /// The prediction from the model's log-probabilities (log-softmax output):
    /// 10 for the digits, or 11 with "not a digit" last; a precondition checks the count.
    public init(logProbabilities: [Float]) {
        precondition(logProbabilities.count == Self.classCount || logProbabilities.count == Self.classCountWithRejection,
                     "a prediction needs 10 or 11 log-probabilities")
        self.logProbabilities = Array(logProbabilities.prefix(Self.classCount))
        let probabilities = self.logProbabilities.map { exp(Double($0)) }
        self.probabilities = probabilities
        self.digit = probabilities.indices.max { probabilities[$0] < probabilities[$1] }!
        self.notADigit = logProbabilities.count > Self.classCount ? exp(Double(logProbabilities[Self.classCount])) : 0
    }

    /// Whether the answer is "not a digit": that class is more probable
    /// than any digit, and at least `notADigitAnswer`.
    public var isNotADigit: Bool { notADigit > confidence && notADigit >= Self.notADigitAnswer }

    /// "Not a digit" is answered only from this probability up; below it the
    /// digit is answered, and marked uncertain from `notADigitDoubt` up. So
    /// high, because a digit written oddly is more often taken for no digit
    /// than a letter for a digit (Models/README.md, "v4").
    public static let notADigitAnswer = 0.9
    /// A digit whose "not a digit" probability is at least this is uncertain.
    public static let notADigitDoubt = 0.1

    /// The probability of `digit`: how sure the model is, from 0 to 1.
    public var confidence: Double { probabilities[digit] }

    /// The `k` most probable digits, most probable first (ties: lower digit first).
    public func top(_ k: Int) -> [RankedDigit] {
        let ranked = probabilities.indices.sorted { a, b in
            probabilities[a] != probabilities[b] ? probabilities[a] > probabilities[b] : a < b
        }
        return ranked.prefix(max(0, k)).map { RankedDigit(digit: $0, probability: probabilities[$0]) }
    }
}
