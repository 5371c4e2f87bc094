@testable import DigitKit
import Foundation
import Testing
import TestSupport

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

    @Test("the line model beside the digit model in use comes before the search, and read uses it")
    func lineModelBesideDigitModel() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digits-beside-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let digitModel = "\(folder)/digits.pt"
        try FileManager.default.copyItem(atPath: try ShippedModel.path(), toPath: digitModel)
        let searched = ShippedModel.linePath()
        #expect(searched != nil)
        #expect(ShippedModel.linePath(besideDigitModel: digitModel) == searched)
        // A file there that is not a line model: read must take it, and say so.
        let beside = "\(folder)/\(ShippedModel.lineFileName)"
        try Data("not a model".utf8).write(to: URL(fileURLWithPath: beside))
        #expect(ShippedModel.linePath(besideDigitModel: digitModel) == beside)
        let number = Fixtures.repositoryRoot.appendingPathComponent("Examples/numbers/touching-4711.png").path
        let result = try CommandRunner.digits(["read", "--model", digitModel, number],
                                              environment: CLI.environment.filter { $0.key != ShippedModel.lineEnvironmentVariable })
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("digits: \(beside): "), "\(result.stderr)")
    }

    @Test("the package DigitKit was compiled from is searched last, for local path dependencies")
    func sourcePackageRoot() {
        let root = Fixtures.repositoryRoot.standardizedFileURL.path
        #expect(ShippedModel.sourcePackageRoot == root)
        #expect(ShippedModel.searchPaths(for: ShippedModel.fileName).last == "\(root)/Models/digits.pt")
    }

    @Test("LineModel.shipped() finds the line model beside the digit model, and says where it looked when there is none")
    func lineModelShipped() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digits-line-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let model = try LineModel.shipped()
        #expect(model.path == ShippedModel.linePath())
        try FileManager.default.copyItem(atPath: model.path, toPath: "\(folder)/\(ShippedModel.lineFileName)")
        #expect(try LineModel.shipped(besideDigitModel: "\(folder)/digits.pt").path == "\(folder)/\(ShippedModel.lineFileName)")
        let missing = LineModel.notFound(besideDigitModel: "\(folder)/digits.pt")
        #expect(missing.code == .modelNotFound)
        #expect(missing.message == "no line model found: set DIGITS_LINE_MODEL, or put digit-line.pt beside \(folder)/digits.pt, where digits.pt is searched for")
    }
}
