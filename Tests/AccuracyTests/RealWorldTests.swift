import DigitKit
import Foundation
import Testing
import TestSupport

/// The MNIST pipeline on pictures as users have them: it must agree with the
/// independent Python reference, and the shipped model must read them.
@Suite("Real-world pictures")
struct RealWorldTests {
    static let model = Result { try DigitModel(path: Fixtures.shippedModel) }

    @Test("the fixture set is all there")
    func fixtureSetIsComplete() {
        let kinds = Dictionary(grouping: RealWorldFixture.all, by: \.kind).mapValues(\.count)
        #expect(RealWorldFixture.all.count == 280)
        #expect(kinds == ["paper": 60, "transparent": 40, "formats": 50, "negative": 40, "strokes": 40, "printed": 40, "blank": 10])
    }

    @Test("tensor equals the Python reference within 1e-5", arguments: RealWorldFixture.all)
    func matchesReference(_ fixture: RealWorldFixture) throws {
        let tensor = Preprocessor().tensor(for: try PNGDecoder().decode(fileAtPath: fixture.path))
        #expect((tensor == nil) == (fixture.reference == nil), "digit found: Swift \(tensor != nil), reference \(fixture.reference != nil)")
        if let tensor, let reference = fixture.reference {
            let worst = zip(tensor.values, reference.values).map { abs($0 - $1) }.max()!
            #expect(worst <= 1e-5, "largest difference \(worst)")
        }
    }

    /// Accuracy per kind for one preprocessing mode: a blank picture is right when no digit is found.
    static func accuracy(mode: Preprocessor.Mode) throws -> [String: Double] {
        let classifier = DigitClassifier(model: try model.get(), preprocessor: Preprocessor(mode: mode))
        let images = try RealWorldFixture.all.map { try PNGDecoder().decode(fileAtPath: $0.path) }
        let predictions = try classifier.classify(images: images)
        var right: [String: Int] = [:], total: [String: Int] = [:]
        for (fixture, prediction) in zip(RealWorldFixture.all, predictions) {
            let kind = fixture.isHandwritten ? [fixture.kind, "handwritten"] : [fixture.kind]
            for k in kind {
                total[k, default: 0] += 1
                right[k, default: 0] += (prediction?.digit == fixture.label) ? 1 : 0
            }
        }
        return total.mapValues { _ in 0 }.merging(right) { $1 }.reduce(into: [:]) { $0[$1.key] = Double($1.value) / Double(total[$1.key]!) }
    }

    @Test("the shipped model reads at least 98.5% of handwritten pictures, 95% of each kind, and finds no digit on blank paper")
    func accuracyFloors() throws {
        let pipeline = try Self.accuracy(mode: .mnist)
        let raw = try Self.accuracy(mode: .raw)
        print("real-world accuracy, MNIST pipeline vs --raw: " + pipeline.keys.sorted().map {
            "\($0) \(String(format: "%.1f", pipeline[$0]! * 100))% vs \(String(format: "%.1f", raw[$0]! * 100))%"
        }.joined(separator: ", "))
        #expect(pipeline["handwritten"]! >= 0.985)
        for kind in RealWorldFixture.handwrittenKinds { #expect(pipeline[kind]! >= 0.95, "\(kind)") }
        #expect(pipeline["printed"]! >= 0.95)
        #expect(pipeline["blank"]! == 1)
        // The whole-picture path, which is what most MNIST apps do, fails these pictures.
        #expect(raw["handwritten"]! < 0.5)
    }
}
