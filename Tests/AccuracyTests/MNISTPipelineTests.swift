import DigitKit
import Foundation
import Testing
import TestSupport

/// MNIST's own test set through the full pipeline: MNIST digits are already
/// size-normalized and centred, so the pipeline must not cost accuracy.
@Suite("MNIST test set through the pipeline")
struct MNISTPipelineTests {
    @Test("accuracy stays within 0.3 points of the plain path on all 10,000 test images")
    func pipelineKeepsAccuracy() throws {
        let set = try MNISTDataset(imagesPath: Fixtures.path("mnist/t10k-images-idx3-ubyte.gz"),
                                   labelsPath: Fixtures.path("mnist/t10k-labels-idx1-ubyte.gz"))
        let model = try DigitModel(path: Fixtures.shippedModel)
        var correct: [Preprocessor.Mode: Int] = [:]
        for mode in [Preprocessor.Mode.raw, .mnist] {
            let classifier = DigitClassifier(model: model, preprocessor: Preprocessor(mode: mode))
            for start in stride(from: 0, to: set.count, by: 500) {
                let indices = start..<min(start + 500, set.count)
                let predictions = try classifier.classify(images: indices.map(set.image(at:)))
                correct[mode, default: 0] += zip(indices, predictions).filter { Int(set.labels[$0]) == $1?.digit }.count
            }
        }
        let plain = Double(correct[.raw]!) / 100, pipeline = Double(correct[.mnist]!) / 100
        print("MNIST test accuracy: plain path \(plain)%, MNIST pipeline \(pipeline)%")
        #expect(plain >= 99.5)
        #expect(abs(plain - pipeline) <= 0.3)
    }
}
