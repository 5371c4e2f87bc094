@testable import DigitKit
import Foundation
import Testing

@Suite("The shipped model's lookup")
struct ShippedModelTests {
    @Test("from the tests' executable, the repository's Models/digits.pt is found and loads")
    func foundFromTheBuild() throws {
        let expected = Fixtures.repositoryRoot.appendingPathComponent("Models/digits.pt").standardizedFileURL.path
        #expect(ShippedModel.searchPaths(for: ShippedModel.fileName).contains(expected))
        let model = try DigitModel.shipped()
        #expect(FileManager.default.contentsEqual(atPath: model.path, andPath: expected))
    }

    @Test("folders are walked up to the root, and checkouts are listed in order")
    func walking() throws {
        #expect(ShippedModel.ancestors(of: "/a/b") == ["/a/b", "/a", ""])
        #expect(ShippedModel.parent("/a") == "/" && ShippedModel.parent("/a/b/c") == "/a/b")
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("digits-checkouts-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        for name in ["zeta", "digits", "alpha"] {
            try FileManager.default.createDirectory(atPath: "\(root)/checkouts/\(name)", withIntermediateDirectories: true)
        }
        #expect(ShippedModel.subfolders(of: "\(root)/checkouts") == ["alpha", "digits", "zeta"].map { "\(root)/checkouts/\($0)" })
        #expect(ShippedModel.subfolders(of: "\(root)/missing").isEmpty)
    }
}
