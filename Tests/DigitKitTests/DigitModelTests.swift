import DigitKit
import Foundation
import Testing
import TestSupport

/// Loading models through TorchBridge: the shipped one works; models that are
/// not digit models are refused at load with a message saying why.
@Suite("Digit model loading")
struct DigitModelTests {
    @Test("loads the shipped model and batches agree with single predictions")
    func shippedModelBatchesLikeSingles() throws {
        let model = try DigitModel(path: Fixtures.shippedModel)
        let tensors = try MNISTSample.load().prefix(16).map(\.referenceTensor)
        let batch = try model.logProbabilities(for: Array(tensors))
        for (tensor, batched) in zip(tensors, batch) {
            let single = try model.logProbabilities(for: tensor)
            #expect(zip(single, batched).allSatisfy { abs($0 - $1) <= 1e-4 })
        }
        #expect(try model.logProbabilities(for: []).isEmpty)
    }

    @Test("a model returning raw logits gets normalized log-probabilities")
    func logitsAreNormalized() throws {
        let model = try DigitModel(path: Fixtures.model("logits"))
        let prediction = try model.predict(MNISTSample.load()[0].referenceTensor)
        #expect(abs(prediction.probabilities.reduce(0, +) - 1) < 1e-5)
    }

    @Test("refuses models that are not digit models", arguments: [
        ("wrong-shape", "got a Float tensor of shape [1, 3]"),
        ("tuple-output", "got a tuple of 2 elements"),
        ("three-channels", "to have 3 channels, but got 1 channels"),
        ("raises", "this model always fails"),
    ])
    func refusesNonDigitModels(name: String, cause: String) {
        let path = Fixtures.model(name)
        #expect {
            _ = try DigitModel(path: path)
        } throws: { error in
            guard let error = error as? DigitError else { return false }
            return error.code == .notADigitModel && error.subject == path && error.message.contains(cause)
                && !error.message.contains("\n")
        }
    }

    @Test("refuses a missing file, a folder and a file that is not TorchScript")
    func refusesUnloadableFiles() throws {
        #expect(throws: DigitError(.modelNotFound, "model file not found", subject: "/no/such/model.pt")) {
            _ = try DigitModel(path: "/no/such/model.pt")
        }
        #expect { _ = try DigitModel(path: Fixtures.path("models")) } throws: {
            ($0 as? DigitError)?.code == .modelLoadFailed
        }
        let notTorchScript = Fixtures.path("mnist-sample/samples.tsv")
        #expect { _ = try DigitModel(path: notTorchScript) } throws: { error in
            guard let error = error as? DigitError else { return false }
            return error.code == .modelLoadFailed && error.message.hasPrefix("not a TorchScript model (not a zip archive)")
        }
    }

    @Test("thread count can be set and is checked")
    func threadCount() throws {
        let before = TorchRuntime.threadCount
        defer { try? TorchRuntime.setThreadCount(before) }
        try TorchRuntime.setThreadCount(1)
        #expect(TorchRuntime.threadCount == 1)
        #expect(throws: DigitError.self) { try TorchRuntime.setThreadCount(0) }
        let version = try #require(TorchRuntime.torchVersion)
        #expect(version.hasPrefix("1.") || version.hasPrefix("2."))
    }

    #if os(Linux)
    /// The shim once compiled to a no-op because its glibc check ran before
    /// any glibc header was included; this catches that. AddressSanitizer
    /// replaces mallopt with one that refuses everything, and the call must
    /// say so. (ThreadSanitizer leaves glibc's in place.)
    @Test("keeping freed memory for the next forward pass takes effect on glibc")
    func retainFreedMemory() {
        let underAddressSanitizer = dlsym(nil, "__asan_init") != nil
        #expect(TorchRuntime.retainFreedMemory() == !underAddressSanitizer)
    }
    #endif
}
