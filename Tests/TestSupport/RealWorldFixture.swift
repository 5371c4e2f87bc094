import DigitKit
import Foundation
import Testing

/// One picture of the real-world fixture set (Tests/Tools/make_realworld_fixtures.py):
/// an MNIST test digit (or a printed one, or none) as users' pictures look.
struct RealWorldFixture: Sendable, CustomTestStringConvertible {
    let file: String
    let kind: String
    /// nil for the blank kind.
    let label: Int?
    /// The Python reference's tensor, nil where it finds no digit.
    let reference: DigitTensor?

    var path: String { Fixtures.path("realworld/\(file)") }
    var testDescription: String { file }
    var isHandwritten: Bool { kind != "printed" && kind != "blank" }

    static let handwrittenKinds = ["paper", "transparent", "formats", "negative", "strokes"]

    static func load() throws -> [RealWorldFixture] {
        let tensors = try Fixtures.floats("realworld/reference.f32")
        return try Fixtures.tsv("realworld/fixtures.tsv").enumerated().map { i, row in
            RealWorldFixture(file: row[0], kind: row[1], label: Int(row[2]),
                             reference: row[4] == "1" ? try DigitTensor(values: Array(tensors[(i * 784)..<((i + 1) * 784)])) : nil)
        }
    }

    static let all: [RealWorldFixture] = (try? load()) ?? []
}
