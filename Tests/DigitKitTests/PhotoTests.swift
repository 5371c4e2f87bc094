import DigitKit
import Foundation
import Testing
import TestSupport

/// Phone-photo-like pictures (Tests/Tools/make_photo_fixtures.py): shadows,
/// sheets on desks, tight crops, thin pens, pencil, rotation, coloured
/// paper, EXIF orientations, JPEG qualities and blank photos, through the
/// whole library path a file takes (format by content, orientation applied,
/// reduced-size JPEG decoding, the MNIST pipeline, the shipped model).
@Suite("Phone photos")
struct PhotoTests {
    /// The Python reference's tensor for each PNG photo without an
    /// orientation (Tests/Tools/make_photo_reference.py), nil where it finds
    /// no digit: the photos' tight crops, desks and shadows take steps no
    /// real-world fixture needs.
    static let references: [(file: String, tensor: DigitTensor?)] = {
        guard let rows = try? Fixtures.tsv("photos/reference.tsv"), let tensors = try? Fixtures.floats("photos/reference.f32"),
              tensors.count == rows.count * 784 else { return [] }
        return rows.enumerated().map { i, row in
            (row[0], row[1] == "1" ? try? DigitTensor(values: Array(tensors[(i * 784)..<((i + 1) * 784)])) : nil)
        }
    }()

    @Test("the pipeline equals the Python reference within 1e-5 on the PNG photos, tight crops included")
    func matchesReference() throws {
        #expect(Self.references.count == 27)
        #expect(Self.references.filter { $0.file.hasPrefix("tight-") && $0.tensor != nil }.count == 9)
        for (file, reference) in Self.references {
            let tensor = Preprocessor().tensor(for: try PNGDecoder().decode(fileAtPath: Fixtures.path("photos/\(file)")))
            #expect((tensor == nil) == (reference == nil), "\(file): digit found: Swift \(tensor != nil), reference \(reference != nil)")
            if let tensor, let reference {
                let worst = zip(tensor.values, reference.values).map { abs($0 - $1) }.max()!
                #expect(worst <= 1e-5, "\(file): largest difference \(worst)")
            }
        }
    }

    @Test("a sheet on a desk is found, and only it is analysed")
    func sheetOnDesk() throws {
        let image = try ImageDecoder.forClassification.decode(fileAtPath: Fixtures.path("photos/desk-001-5.jpg"))
        let stages = Preprocessor().process(image)
        let paper = try #require(stages.paper)
        // The desk fills 20-50% of the frame around the sheet: the sheet's box is well inside.
        #expect(paper.minX > 0 && paper.minY > 0 && paper.maxX < stages.gray.width - 1 && paper.maxY < stages.gray.height - 1)
        #expect(paper.width * paper.height < stages.gray.width * stages.gray.height * 9 / 10)
        // A page under a shadow fills its frame: no sheet is taken out of it.
        let shadow = try ImageDecoder.forClassification.decode(fileAtPath: Fixtures.path("photos/shadow-012-8.jpg"))
        #expect(Preprocessor().process(shadow).paper == nil)
    }
}
