import DigitKit
import Foundation
import Testing
import TestSupport

@Suite("MNIST IDX files")
struct MNISTDatasetTests {
    static let images = Fixtures.path("mnist/t10k-images-idx3-ubyte.gz")
    static let labels = Fixtures.path("mnist/t10k-labels-idx1-ubyte.gz")

    static func temporaryFile(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("idx-\(UUID().uuidString)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("reads the gzipped MNIST test set")
    func readsTestSet() throws {
        let set = try MNISTDataset(imagesPath: Self.images, labelsPath: Self.labels)
        #expect(set.count == 10_000 && set.rows == 28 && set.columns == 28)
        #expect(set.labels.prefix(5) == [7, 2, 1, 0, 4])
        for digit in 0...9 { #expect(set.labels.filter { $0 == digit }.count > 800) }
        // Image 0 is the regression sample 0000-7.png.
        #expect(set.image(at: 0) == (try PNGDecoder().decode(fileAtPath: Fixtures.path("mnist-sample/0000-7.png"))))
    }

    @Test("reads raw (not gzipped) files and refuses malformed ones")
    func refusesMalformedFiles() throws {
        let labels: [UInt8] = [0, 0, 8, 1, 0, 0, 0, 2, 3, 4]
        let images: [UInt8] = [0, 0, 8, 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2, 10, 20, 30, 40]
        let labelsPath = try Self.temporaryFile(labels), imagesPath = try Self.temporaryFile(images)
        defer { for path in [labelsPath, imagesPath] { try? FileManager.default.removeItem(atPath: path) } }
        let set = try MNISTDataset(imagesPath: imagesPath, labelsPath: labelsPath)
        #expect(set.count == 2 && set.rows == 1 && set.columns == 2 && set.pixels == [10, 20, 30, 40] && set.labels == [3, 4])

        func expectInvalid(_ images: [UInt8], _ labels: [UInt8], _ message: String) throws {
            let i = try Self.temporaryFile(images), l = try Self.temporaryFile(labels)
            defer { for path in [i, l] { try? FileManager.default.removeItem(atPath: path) } }
            #expect { _ = try MNISTDataset(imagesPath: i, labelsPath: l) } throws: { error in
                guard let error = error as? DigitError else { return false }
                return error.code == .invalidDataset && error.message.contains(message)
            }
        }
        try expectInvalid(Array(images.dropLast()), labels, "truncated data: 3 of 4 bytes")
        try expectInvalid(images + [0], labels, "longer than its header says")
        try expectInvalid(labels, labels, "bad magic number 0x801, expected 0x803")
        try expectInvalid(images, [0, 0, 8, 1, 0, 0, 0, 3, 1, 2, 3], "2 images but 3 labels")
        try expectInvalid(images, [0, 0, 8, 1, 0, 0, 0, 2, 1, 12], "label 12 at index 1 is not a digit")
        try expectInvalid([0, 0, 8, 3, 0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0, 0, 0, 0, 1], labels, "claims more than 1073741824 bytes")
        try expectInvalid([0, 0, 8, 3, 0x7f, 0xff, 0xff, 0xff, 0, 0, 0, 1, 0, 0, 0, 1], labels, "dimension 2147483647 out of range")
        try expectInvalid(Array(images.prefix(6)), labels, "truncated header: 2 of 12 bytes")
    }

    @Test("memory follows the data read, not the header: a 16-byte file claiming a gigabyte is refused under a 400 MB limit",
          .enabled(if: AddressSpaceLimit.isEnforceable))
    func headerClaimsCostNothing() throws {
        let labels = try Self.temporaryFile([0, 0, 8, 1, 0, 0x14, 0xE3, 0xA8])
        // 1,369,000 images of 28x28: 1.07 GB claimed, none there.
        let images = try Self.temporaryFile([0, 0, 8, 3, 0, 0x14, 0xE3, 0xA8, 0, 0, 0, 28, 0, 0, 0, 28])
        defer { for path in [labels, images] { try? FileManager.default.removeItem(atPath: path) } }
        let result = try AddressSpaceLimit.digits(["eval", "--images", images, "--labels", labels], kibibytes: 400_000)
        #expect(result.status == 1)
        #expect(result.stderrLines == ["digits: \(images): truncated data: 0 of 1073296000 bytes"])
    }

    @Test("an item over the pixel ceiling every picture input has is refused before its data is read")
    func itemPixelCeiling() throws {
        let labels = try Self.temporaryFile([0, 0, 8, 1, 0, 0, 0, 1, 1])
        // One 30000x30000 image (900 megapixels), its data left out.
        let images = try Self.temporaryFile([0, 0, 8, 3, 0, 0, 0, 1, 0, 0, 0x75, 0x30, 0, 0, 0x75, 0x30])
        defer { for path in [labels, images] { try? FileManager.default.removeItem(atPath: path) } }
        let result = try CommandRunner.digits(["eval", "--images", images, "--labels", labels])
        #expect(result.status == 1)
        #expect(result.stderrLines == ["digits: \(images): each item is 30000x30000 pixels, over the limit of 67108864 pixels"])
    }
}
