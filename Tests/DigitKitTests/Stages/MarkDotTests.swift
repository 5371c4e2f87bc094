@testable import DigitKit
import Foundation
import Testing
import TestSupport

/// The dot under a question or an exclamation mark (`ConnectedComponents.dot`):
/// kept with the mark though it is under a tenth of its area, where a
/// speck elsewhere is still dropped.
@Suite("the dot of a question or an exclamation mark")
struct MarkDotTests {
    /// A bar 6 px wide from y 10 to 110: 606 px, a stroke width of about 5.7 px.
    static func bar(_ x: Int, _ y: Int) -> Bool { (45...50).contains(x) && (10...110).contains(y) }

    /// A blob at (x, y) of `width` x `height` px at ink level `level`, only its rim if `hollow`.
    struct Blob: Sendable, CustomStringConvertible {
        var x: Int, y: Int, width = 6, height = 6, level = 1.0, hollow = false
        var description: String { "\(hollow ? "ring" : "blob") \(width)x\(height) at (\(x), \(y)), level \(level)" }
        func covers(_ px: Int, _ py: Int) -> Bool {
            let (dx, dy) = (px - x, py - y)
            guard (0..<width).contains(dx) && (0..<height).contains(dy) else { return false }
            return !hollow || dx == 0 || dy == 0 || dx == width - 1 || dy == height - 1
        }
    }

    /// The bar and the blobs (each under a tenth of the bar's area) in a
    /// 180 px square.
    static func map(_ blobs: [Blob]) -> InkMap {
        var indices: [Int] = [], values: [Double] = []
        for y in 0..<180 {
            for x in 0..<180 {
                let level = bar(x, y) ? 1 : blobs.first { $0.covers(x, y) }?.level ?? 0
                if level > 0 {
                    indices.append(y * 180 + x)
                    values.append(level)
                }
            }
        }
        return InkMap(width: 180, height: 180, indices: indices, values: values)
    }

    @Test("a stroke-wide dot just under the bar's foot is kept, and the box reaches it")
    func dotUnderTheFoot() throws {
        let digit = try #require(ConnectedComponents.digit(in: Self.map([Blob(x: 45, y: 120)])))
        #expect(digit.kept == 2 && digit.found == 2)
        #expect(digit.box == BoundingBox(minX: 45, minY: 10, maxX: 50, maxY: 125))
    }

    @Test("not a dot of the mark: beside the foot, too far below, one of two, a dash, a ring, faint, or much thinner than the stroke",
          arguments: [[Blob(x: 70, y: 120)], [Blob(x: 45, y: 165)], [Blob(x: 45, y: 118), Blob(x: 45, y: 130)],
                      [Blob(x: 44, y: 120, width: 14, height: 4)], [Blob(x: 42, y: 120, width: 12, height: 12, hollow: true)],
                      [Blob(x: 45, y: 120, level: 0.3)], [Blob(x: 47, y: 120, width: 2, height: 2)]])
    func specksStillDropped(blobs: [Blob]) throws {
        let digit = try #require(ConnectedComponents.digit(in: Self.map(blobs)))
        #expect(digit.kept == 1)
        #expect(digit.box == BoundingBox(minX: 45, minY: 10, maxX: 50, maxY: 110))
    }

    /// Drawn by Tests/Tools/make_mark_fixtures.py; 0.28.0 dropped both dots
    /// and read the question mark as a 7 at 82%.
    @Test("drawn marks: the dot is kept, and the question mark is no confident digit",
          arguments: ["question.png", "exclamation.png"])
    func drawnMarks(file: String) throws {
        let image = try ImageDecoder.forClassification.decode(fileAtPath: Fixtures.path("marks/\(file)"))
        let locator = try NumberFixtures.locator.get()
        let stages = try Preprocessor(locator: locator).stages(for: image)
        let components = try #require(stages.analysis.decisions.last { $0.step == .components })
        #expect(components.text.hasPrefix("2 kept, 0 dropped"), "\(components.text)")
        guard file == "question.png" else { return }
        let classification = try DigitClassifier(model: NumberFixtures.model.get(), preprocessor: Preprocessor(locator: locator))
            .classification(of: image)
        #expect(classification.prediction == nil || classification.isUncertain, "\(classification)")
    }

    @Test("the rules keep the same dot as the Python reference: the tensors of the drawn marks match within 1e-5")
    func matchesReference() throws {
        let files = ["question.png", "exclamation.png"]
        let references = try Fixtures.floats("marks/reference.f32")
        #expect(references.count == files.count * 784)
        for (i, file) in files.enumerated() where references.count == files.count * 784 {
            let tensor = try #require(Preprocessor().tensor(for: PNGDecoder().decode(fileAtPath: Fixtures.path("marks/\(file)"))))
            let worst = zip(tensor.values, references[(i * 784)..<((i + 1) * 784)]).map { abs($0 - $1) }.max()!
            #expect(worst <= 1e-5, "\(file): largest difference \(worst)")
        }
    }
}
