import DigitKit
import Foundation
import Testing
import TestSupport

/// Loading and running the line model (Models/digit-line.pt) through
/// TorchBridge: it reads runs of MNIST digits; files that are not line
/// models, the digit model among them, are refused at load.
@Suite("Line model")
struct LineModelTests {
    @Test("reads runs of three MNIST sample digits laid side by side")
    func readsRuns() throws {
        let model = try LineModel(path: Fixtures.shippedLineModel)
        let samples = try MNISTSample.load()
        let side = DigitTensor.side
        var right = 0, runs = 0
        for start in stride(from: 0, to: samples.count - 2, by: 3) {
            // A 28-pixel MNIST digit is a 20-pixel ink box with 4 pixels around: a line's layout.
            let digits = samples[start..<(start + 3)]
            var values: [Float] = []
            for y in 0..<side {
                for digit in digits { values += (0..<side).map { digit.referenceTensor[$0, y] } }
            }
            let run = try LineTensor(width: 3 * side, values: values)
            let frames = try model.logProbabilities(for: run)
            #expect(frames.count >= 1 && frames.count <= run.width)
            #expect(frames.allSatisfy { abs($0.map { exp(Double($0)) }.reduce(0, +) - 1) < 1e-4 })
            let text = LineModelTests.greedy(frames)
            right += text == digits.map { String($0.label) }.joined() ? 1 : 0
            runs += 1
        }
        #expect(runs >= 30)
        #expect(throws: DigitError.self) { try LineTensor(width: 7, values: [Float](repeating: 0, count: 7 * side)) }
        #expect(throws: DigitError.self) { try LineTensor(width: 8, values: [Float](repeating: 0, count: 8)) }
        #expect(right * 10 >= runs * 9, "\(right) of \(runs) runs read right")
    }

    /// The best class of every frame, repeats merged, blanks dropped.
    static func greedy(_ frames: [[Float]]) -> String {
        var text = "", previous = 0
        for frame in frames {
            let best = frame.indices.max { frame[$0] < frame[$1] }!
            if best != 0 && best != previous { text += String(best - 1) }
            previous = best
        }
        return text
    }

    @Test("the digit model is not a line model, and the line model is not a digit model")
    func kindsAreTold() {
        #expect { _ = try LineModel(path: Fixtures.shippedModel) } throws: { error in
            guard let error = error as? DigitError else { return false }
            return error.code == .notADigitModel && error.subject == Fixtures.shippedModel
                && error.message.hasPrefix("not a line model") && !error.message.contains("\n")
        }
        #expect { _ = try DigitModel(path: Fixtures.shippedLineModel) } throws: {
            ($0 as? DigitError)?.code == .notADigitModel
        }
    }

    @Test("refuses what is no model at all, as DigitModel does", arguments: [
        ("/no/such/line.pt", DigitError.Code.modelNotFound),
        (Fixtures.path("models/empty.pt"), .modelLoadFailed),
        (Fixtures.path("models/random-bytes.pt"), .modelLoadFailed),
        (Fixtures.path("models/state-dict.pt"), .modelLoadFailed),
        (Fixtures.path("models/raises.pt"), .notADigitModel),
        (Fixtures.path("models/tuple-output.pt"), .notADigitModel),
    ])
    func refuses(path: String, code: DigitError.Code) {
        #expect { _ = try LineModel(path: path) } throws: { error in
            guard let error = error as? DigitError else { return false }
            return error.code == code && error.subject == path && !error.message.contains("\n")
        }
    }
}
