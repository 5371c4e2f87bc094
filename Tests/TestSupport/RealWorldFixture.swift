import DigitKit
import Foundation
import Testing

/// One picture of the real-world fixture set (Tests/Tools/make_realworld_fixtures.py):
/// an MNIST test digit (or a printed one, or none) as users' pictures look.
package struct RealWorldFixture: Sendable, CustomTestStringConvertible {
    package let file: String
    package let kind: String
    /// nil for the blank kind.
    package let label: Int?
    /// The Python reference's tensor, nil where it finds no digit.
    package let reference: DigitTensor?

    package var path: String { Fixtures.path("realworld/\(file)") }
    package var testDescription: String { file }
    package var isHandwritten: Bool { kind != "printed" && kind != "blank" }

    package static let handwrittenKinds = ["paper", "transparent", "formats", "negative", "strokes"]

    package static func load() throws -> [RealWorldFixture] {
        let tensors = try Fixtures.floats("realworld/reference.f32")
        return try Fixtures.tsv("realworld/fixtures.tsv").enumerated().map { i, row in
            RealWorldFixture(file: row[0], kind: row[1], label: Int(row[2]),
                             reference: row[4] == "1" ? try DigitTensor(values: Array(tensors[(i * 784)..<((i + 1) * 784)])) : nil)
        }
    }

    package static let all: [RealWorldFixture] = (try? load()) ?? []

    /// Every eighth fixture from `first`: each kind, and pictures from 28
    /// pixels to several hundred, for a test that runs a slow twin on each.
    package static func everyEighth(from first: Int = 0) -> [RealWorldFixture] {
        stride(from: first, to: all.count, by: 8).map { all[$0] }
    }
}
