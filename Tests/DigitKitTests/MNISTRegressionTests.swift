import DigitKit
import Foundation
import Testing
import TestSupport

/// The MNIST sample regression: Swift's decode + plain preprocess + model
/// path reproduces what Python torch computes for the same images.
@Suite("MNIST sample regression")
struct MNISTRegressionTests {
    static let model = Result { try DigitModel(path: Fixtures.shippedModel) }

    @Test("the sample covers every digit at least 10 times and was made with the shipped model")
    func sampleIsComplete() throws {
        let samples = MNISTSample.all
        #expect(samples.count >= 100)
        for digit in 0...9 { #expect(samples.filter { $0.label == digit }.count >= 10, "digit \(digit)") }
        let recorded = try String(decoding: Fixtures.data("mnist-sample/model.sha256"), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(recorded == (try CommandRunner.sha256(ofFileAt: Fixtures.shippedModel)),
                "Models/digits.pt changed: run Tests/Tools/make_mnist_sample.py")
    }

    @Test("tensor within 1e-6, log-probabilities within 1e-4, label reproduced", arguments: MNISTSample.all)
    func reproducesPython(_ sample: MNISTSample) throws {
        let tensor = try #require(Preprocessor(mode: .raw).tensor(for: try PNGDecoder().decode(fileAtPath: sample.path)))
        let tensorError = zip(tensor.values, sample.referenceTensor.values).map { abs($0 - $1) }.max()!
        #expect(tensorError <= 1e-6)

        let prediction = try Self.model.get().predict(tensor)
        // A model with a "not a digit" class has an 11th log-probability.
        let scores = prediction.logProbabilities + (sample.referenceLogProbabilities.count > 10 ? [Float(log(prediction.notADigit))] : [])
        #expect(scores.count == sample.referenceLogProbabilities.count)
        let logError = zip(scores, sample.referenceLogProbabilities).map { abs($0 - $1) }.max()!
        #expect(logError <= 1e-4)
        #expect(prediction.digit == sample.label)
    }
}
