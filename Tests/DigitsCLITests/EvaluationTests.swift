import DigitKit
import Foundation
import Testing
import TestSupport

/// `digits eval` and the metrics behind it.
@Suite("Evaluation")
struct EvaluationTests {
    static let images = Fixtures.path("mnist/t10k-images-idx3-ubyte.gz")
    static let labels = Fixtures.path("mnist/t10k-labels-idx1-ubyte.gz")
    /// The shipped model's MNIST test accuracy as its model card states it (Models/README.md).
    static let modelCardAccuracy = 0.9962

    /// IDX files of MNIST test images 0-5 (a 7, 2, 1, 0, 4, 1, which the model reads right)
    /// labelled 7, 2, 1, 0, 9, 2: two deliberate "mistakes" with known arithmetic.
    static func handMadeDataset() throws -> (images: String, labels: String) {
        let set = try MNISTDataset(imagesPath: images, labelsPath: labels)
        #expect(Array(set.labels.prefix(6)) == [7, 2, 1, 0, 4, 1])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("eval-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let imageBytes: [UInt8] = [0, 0, 8, 3, 0, 0, 0, 6, 0, 0, 0, 28, 0, 0, 0, 28] + set.pixels.prefix(6 * 784)
        let labelBytes: [UInt8] = [0, 0, 8, 1, 0, 0, 0, 6, 7, 2, 1, 0, 9, 2]
        let paths = (folder.appendingPathComponent("images").path, folder.appendingPathComponent("labels").path)
        try Data(imageBytes).write(to: URL(fileURLWithPath: paths.0))
        try Data(labelBytes).write(to: URL(fileURLWithPath: paths.1))
        return paths
    }

    @Test("the mistakes keep the tensor the model was given, in either preprocessing mode")
    func mistakesKeepTheirTensors() throws {
        let dataset = try MNISTDataset(imagesPath: Self.images, labelsPath: Self.labels)
        let model = try DigitModel(path: Fixtures.shippedModel)
        for mode in [Preprocessor.Mode.mnist, .raw] {
            let preprocessor = Preprocessor(mode: mode)
            let report = try Evaluator(model: model, preprocessor: preprocessor, batchSize: 128, keepMistakes: 5).evaluate(dataset, limit: 2000)
            #expect(!report.mistakes.isEmpty, "\(mode)")
            for mistake in report.mistakes {
                #expect(mistake.tensor == preprocessor.tensor(for: dataset.image(at: mistake.index)), "\(mode) #\(mistake.index)")
            }
            #expect(report.mistakes.map(\.confidence) == report.mistakes.map(\.confidence).sorted(by: >))
        }
    }

    @Test("confusion, precision and recall are exact on a hand-made set")
    func metricsArithmetic() throws {
        let (images, labels) = try Self.handMadeDataset()
        defer { try? FileManager.default.removeItem(atPath: (images as NSString).deletingLastPathComponent) }
        let result = try CommandRunner.digits(["eval", "--images", images, "--labels", labels, "--json", "--model", Fixtures.shippedModel])
        #expect(result.status == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(report["correct"] as? Int == 4 && report["total"] as? Int == 6)
        #expect(abs((report["accuracy"] as? Double ?? 0) - 4.0 / 6.0) < 1e-6)
        let confusion = try #require(report["confusion"] as? [[Int]])
        var expected = Array(repeating: Array(repeating: 0, count: 10), count: 10)
        for (truth, predicted) in [(7, 7), (2, 2), (1, 1), (0, 0), (9, 4), (2, 1)] { expected[truth][predicted] += 1 }
        #expect(confusion == expected)
        let perClass = try #require(report["per_class"] as? [[String: Any]])
        func metric(_ digit: Int, _ key: String) -> Double? { perClass[digit][key] as? Double }
        #expect(metric(1, "precision") == 0.5 && metric(1, "recall") == 1)
        #expect(metric(2, "precision") == 1 && metric(2, "recall") == 0.5)
        #expect(metric(4, "precision") == 0 && perClass[4]["recall"] is NSNull)
        #expect(perClass[9]["precision"] is NSNull && metric(9, "recall") == 0)
        #expect(perClass.map { $0["support"] as? Int } == [1, 1, 2, 0, 0, 0, 0, 1, 0, 1])
        let mistakes = try #require(report["misclassified"] as? [[String: Any]])
        #expect(Set(mistakes.map { $0["index"] as? Int }) == [4, 5])
        #expect(mistakes.allSatisfy { ($0["confidence"] as? Double ?? 0) > 0.5 })
    }

    @Test("the shipped model reaches its model card's accuracy on the full MNIST test set")
    func fullTestSet() throws {
        let result = try CommandRunner.digits(["eval", "--images", Self.images, "--labels", Self.labels, "--json", "--model", Fixtures.shippedModel])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "no progress bar when stderr is not a terminal")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(report["total"] as? Int == 10_000)
        let accuracy = try #require(report["accuracy"] as? Double)
        print("MNIST test accuracy from digits eval: \(accuracy)")
        #expect(accuracy >= Self.modelCardAccuracy - 1e-9)
        for key in ["images_per_second", "forward_images_per_second", "ms_per_image", "forward_ms_per_image"] {
            #expect((report[key] as? Double ?? 0) > 0, "\(key)")
        }
    }

    @Test("text report, --limit, --show, and malformed files exit 1")
    func textAndErrors() throws {
        let text = try CommandRunner.digits(["eval", "--images", Self.images, "--labels", Self.labels, "--limit", "300",
                                             "--misclassified", "2", "--show", "--model", Fixtures.shippedModel])
        #expect(text.status == 0)
        #expect(text.stdout.hasPrefix("accuracy: "))
        #expect(text.stdout.contains("(rows: true digit, columns: predicted)"))
        #expect(text.stdout.contains("images/s end to end"))
        let truncated = FileManager.default.temporaryDirectory.appendingPathComponent("truncated-\(UUID().uuidString)").path
        try Data([0, 0, 8, 3, 0, 0, 0, 2, 0, 0, 0, 28, 0, 0, 0, 28, 1, 2, 3]).write(to: URL(fileURLWithPath: truncated))
        defer { try? FileManager.default.removeItem(atPath: truncated) }
        let bad = try CommandRunner.digits(["eval", "--images", truncated, "--labels", Self.labels, "--model", Fixtures.shippedModel])
        #expect(bad.status == 1)
        #expect(bad.stderrLines == ["digits: \(truncated): truncated data: 3 of 1568 bytes"])
        let swapped = try CommandRunner.digits(["eval", "--images", Self.labels, "--labels", Self.images, "--model", Fixtures.shippedModel])
        #expect(swapped.status == 1)
        #expect(swapped.stderr.contains("bad magic number 0x801, expected 0x803"))
        #expect(try CommandRunner.digits(["eval", "--images", Self.images, "--labels", Self.labels, "--batch", "0"]).status == 2)
    }

    @Test("classify gives the same results batched as one file at a time")
    func batchedClassifyMatchesSingle() throws {
        let files = MNISTSample.all.prefix(40).map(\.path) + RealWorldFixture.all.prefix(30).map(\.path)
        let batched = try CommandRunner.digits(["classify", "--json", "--model", Fixtures.shippedModel] + files)
        #expect(batched.status == 0)
        let batchedObjects = try batched.stdoutLines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(batchedObjects.count == files.count)
        for (file, object) in zip(files.prefix(12), batchedObjects) {
            let single = try CommandRunner.digits(["classify", "--json", "--model", Fixtures.shippedModel, file])
            let singleObject = try JSONSerialization.jsonObject(with: Data(single.stdout.utf8)) as! [String: Any]
            #expect(singleObject["digit"] as? Int == object["digit"] as? Int)
            let a = singleObject["probabilities"] as! [Double], b = object["probabilities"] as! [Double]
            #expect(zip(a, b).allSatisfy { abs($0 - $1) <= 1e-5 }, "\(file)")
        }
        // In process, the whole batch against one at a time:
        let classifier = try DigitClassifier(modelPath: Fixtures.shippedModel)
        let images = try files.map { try PNGDecoder().decode(fileAtPath: $0) }
        let together = try classifier.classify(images: images)
        for (image, prediction) in zip(images, together) {
            let alone = try classifier.classify(image: image)
            #expect(alone?.digit == prediction?.digit)
            #expect(zip(alone?.probabilities ?? [], prediction?.probabilities ?? []).allSatisfy { abs($0 - $1) <= 1e-5 })
        }
    }
}

@Suite("Confusion matrix")
struct ConfusionMatrixTests {
    @Test("counts, accuracy, precision and recall")
    func arithmetic() {
        var matrix = ConfusionMatrix()
        for (truth, predicted) in [(3, 3), (3, 3), (3, 5), (5, 5), (8, 3)] { matrix.add(truth: truth, predicted: predicted) }
        #expect(matrix.total == 5 && matrix.correct == 3 && matrix.accuracy == 0.6)
        #expect(matrix.precision(3) == 2.0 / 3.0 && matrix.recall(3) == 2.0 / 3.0)
        #expect(matrix.precision(5) == 0.5 && matrix.recall(5) == 1)
        #expect(matrix.precision(8) == nil && matrix.recall(8) == 0)
        #expect(matrix.precision(0) == nil && matrix.recall(0) == nil)
    }
}
