import Foundation

/// Paths of the test fixtures (Tests/Fixtures) and of the repository's own files.
package enum Fixtures {
    /// The fixtures folder of the checkout the tests were built from.
    package static let resources: URL = repositoryRoot.appendingPathComponent("Tests/Fixtures")

    package static func path(_ relative: String) -> String {
        resources.appendingPathComponent(relative).path
    }

    /// The repository root, found from this source file's location.
    package static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The shipped model, Models/digits.pt.
    package static let shippedModel: String = repositoryRoot.appendingPathComponent("Models/digits.pt").path
    /// The line model that reads runs of touching digits (Models/digit-line.pt).
    package static let shippedLineModel: String = repositoryRoot.appendingPathComponent("Models/digit-line.pt").path

    /// A test model from Tests/Fixtures/models.
    package static func model(_ name: String) -> String { path("models/\(name).pt") }
    /// The ink locator that ships with digits.
    package static let shippedLocator: String = repositoryRoot.appendingPathComponent("Models/locator.pt").path

    package static func data(_ relative: String) throws -> Data {
        try Data(contentsOf: resources.appendingPathComponent(relative))
    }

    /// Little-endian float32 values of a binary fixture.
    package static func floats(_ relative: String) throws -> [Float] {
        let data = try data(relative)
        return data.withUnsafeBytes { raw in
            (0..<(data.count / 4)).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
    }

    /// Tab-separated lines of a text fixture.
    package static func tsv(_ relative: String) throws -> [[String]] {
        try String(decoding: data(relative), as: UTF8.self)
            .split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }
}
