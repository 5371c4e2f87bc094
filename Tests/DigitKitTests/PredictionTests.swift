import DigitKit
import Foundation
import Testing
import TestSupport

@Suite("Prediction")
struct PredictionTests {
    static let logProbabilities: [Float] = [0.01, 0.02, 0.6, 0.05, 0.1, 0.02, 0.1, 0.05, 0.04, 0.01].map { Float(log($0)) }

    @Test("digit, confidence and probabilities come from the log-probabilities")
    func fields() {
        let prediction = Prediction(logProbabilities: Self.logProbabilities)
        #expect(prediction.digit == 2)
        #expect(abs(prediction.confidence - 0.6) < 1e-6)
        #expect(abs(prediction.probabilities.reduce(0, +) - 1) < 1e-6)
    }

    @Test("top-k ranks by probability, ties by lower digit")
    func ranking() {
        let top = Prediction(logProbabilities: Self.logProbabilities).top(4)
        #expect(top.map(\.digit) == [2, 4, 6, 3])
        #expect(Prediction(logProbabilities: Self.logProbabilities).top(20).count == 10)
    }
}
