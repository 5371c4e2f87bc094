import Testing
import DigitKit
import Foundation

/// One MNIST test image of the regression sample, with what Python torch made of it
/// (Tests/Tools/make_mnist_sample.py).
package struct MNISTSample: Sendable, CustomTestStringConvertible {
    package let file: String
    package let index: Int
    package let label: Int
    /// torchvision's ToTensor + Normalize of the PNG.
    package let referenceTensor: DigitTensor
    /// The shipped model's log-probabilities for that tensor, in Python torch.
    package let referenceLogProbabilities: [Float]

    package var path: String { Fixtures.path("mnist-sample/\(file)") }
    package var testDescription: String { file }

    package static func load() throws -> [MNISTSample] {
        let rows = try Fixtures.tsv("mnist-sample/samples.tsv")
        let tensors = try Fixtures.floats("mnist-sample/tensors.f32")
        let logProbabilities = try Fixtures.floats("mnist-sample/logprobs.f32")
        // 10 scores per sample, or 11 for a model with a "not a digit" class.
        let classes = rows.isEmpty ? 10 : logProbabilities.count / rows.count
        return try rows.enumerated().map { i, row in
            MNISTSample(
                file: row[0], index: Int(row[1])!, label: Int(row[2])!,
                referenceTensor: try DigitTensor(values: Array(tensors[(i * 784)..<((i + 1) * 784)])),
                referenceLogProbabilities: Array(logProbabilities[(i * classes)..<((i + 1) * classes)]))
        }
    }

    /// Loaded once for parameterized tests; empty if the fixtures are missing
    /// (the count test then fails).
    package static let all: [MNISTSample] = (try? load()) ?? []
}

