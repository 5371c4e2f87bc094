import DigitKit
import Foundation
import Testing
import TestSupport

/// A model whose scores are NaN or infinite has failed: no command may turn
/// that into a digit with a confidence. nan-on-ink.pt passes the load probe
/// (an empty picture) and gives NaN once a picture has ink;
/// infinite-scores.pt gives +infinity from the start.
@Suite("Non-finite model output")
struct NonFiniteModelTests {
    static let examples = Fixtures.repositoryRoot.appendingPathComponent("Examples").path
    static let nanModel = Fixtures.model("nan-on-ink")
    static let cause = "forward pass returned scores that are not finite numbers (NaN or infinity)"

    @Test("classify and read stop with exit 2 and one line naming the model, in every format",
          arguments: [["classify"], ["classify", "--json"], ["classify", "--format", "csv"], ["classify", "--top", "3"],
                      ["read"], ["read", "--json"]])
    func batchCommands(_ command: [String]) throws {
        let result = try CommandRunner.digits(command + ["--model", Self.nanModel, "\(Self.examples)/seven.png", "\(Self.examples)/two.png"])
        #expect(result.status == 2)
        #expect(!result.stdout.contains("nan") && !result.stdout.contains("null"), "\(result.stdout)")
        #expect(result.stderrLines == ["digits: \(Self.nanModel): \(Self.cause)"])
    }

    @Test("stream stops at the first frame with ink, naming the model and the frame, exit 2")
    func stream() throws {
        let clip = try #require(StreamClip.all().first { $0.format == "y4m-mono" && $0.width == 320 })
        let result = try CommandRunner.digits(["stream", "--every-frame", "--json", "--model", Self.nanModel, try clip.path()])
        #expect(result.status == 2)
        #expect(!result.stdout.contains("\"digit\""), "\(result.stdout)")
        let last = try #require(result.stderrLines.last)
        #expect(last.hasPrefix("digits: \(Self.nanModel): frame ") && last.hasSuffix(": \(Self.cause)"), "\(result.stderr)")
    }

    @Test("a model infinite from the start is refused at load as not a digit model")
    func refusedAtLoad() throws {
        let model = Fixtures.model("infinite-scores")
        let result = try CommandRunner.digits(["classify", "--model", model, "\(Self.examples)/seven.png"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines == [
            "digits: \(model): not a digit model: probe forward returned scores that are not finite numbers (NaN or infinity)",
        ])
        #expect(throws: DigitError.self) { try DigitModel(path: model) }
    }

    @Test("the library throws inferenceFailed instead of returning a prediction")
    func library() throws {
        let model = try DigitModel(path: Self.nanModel)
        var pixels = [Float](repeating: 0, count: 28 * 28)
        pixels[14 * 28 + 14] = 2.8
        let tensor = try DigitTensor(values: pixels)
        #expect { try model.predict(tensor) } throws: { ($0 as? DigitError)?.code == .inferenceFailed }
        #expect { try model.predict([tensor, tensor]) } throws: { ($0 as? DigitError)?.code == .inferenceFailed }
    }
}
