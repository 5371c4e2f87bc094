import DigitKit
import Foundation
import Testing
import TestSupport

/// The "several digits" warning on whole data sets of single digits.
@Suite("Several digits in one picture: single digits on whole data sets")
struct SingleDigitWarningTests {
    @Test("single digits are not: none of the real-world pictures, at most 0.5% of the MNIST test set")
    func singleDigitsAreNot() throws {
        let classifier = DigitClassifier(model: try DigitModel(path: Fixtures.shippedModel))
        let realWorld = try classifier.classify(RealWorldFixture.all.map { ClassificationInput.file($0.path) })
        let flagged = realWorld.filter { !$0.warnings.isEmpty }.map(\.origin.name)
        #expect(flagged.isEmpty, "\(flagged)")
        let dataset = try MNISTDataset(imagesPath: Fixtures.path("mnist/t10k-images-idx3-ubyte.gz"),
                                       labelsPath: Fixtures.path("mnist/t10k-labels-idx1-ubyte.gz"))
        let preprocessor = Preprocessor()
        let warned = (0..<dataset.count).filter { !preprocessor.process(dataset.image(at: $0)).warnings.isEmpty }
        print("MNIST test images marked 'several digits': \(warned.count) of \(dataset.count): \(warned.prefix(20))")
        #expect(Double(warned.count) <= 0.005 * Double(dataset.count))
    }
}
