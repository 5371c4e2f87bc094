import Testing
import DigitKit
import Foundation

/// One MNIST test image of the regression sample, with what Python torch made of it
/// (Tests/Tools/make_mnist_sample.py).
struct MNISTSample: Sendable, CustomTestStringConvertible {
    let file: String
    let index: Int
    let label: Int
    /// torchvision's ToTensor + Normalize of the PNG.
    let referenceTensor: DigitTensor
    /// The shipped model's log-probabilities for that tensor, in Python torch.
    let referenceLogProbabilities: [Float]

    var path: String { Fixtures.path("mnist-sample/\(file)") }
    var testDescription: String { file }

    static func load() throws -> [MNISTSample] {
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
    static let all: [MNISTSample] = (try? load()) ?? []
}

