import DigitKit
import Foundation
import Testing
import TestSupport

/// PngSuite (Willem van Schaik's PNG conformance suite): every colour type,
/// bit depth 1-16, palettes with tRNS, interlacing. Pixels are compared with
/// an independent decoder (Pillow), reduced to grey by the same documented rules.
@Suite("PNG decoder on PngSuite")
struct PNGDecoderTests {
    struct Reference: CustomTestStringConvertible, Sendable {
        let file: String
        let width: Int
        let height: Int
        let offset: Int
        var testDescription: String { file }
    }

    static let references: [Reference] = {
        (try? Fixtures.tsv("pngsuite-reference/reference.tsv"))?.map {
            Reference(file: $0[0], width: Int($0[1])!, height: Int($0[2])!, offset: Int($0[3])!)
        } ?? []
    }()
    static let valid = references.filter { !$0.file.hasPrefix("x") }
    static let corrupt = references.filter { $0.file.hasPrefix("x") }

    @Test("the suite is all there")
    func suiteIsComplete() {
        #expect(Self.references.count == 175)
        #expect(Self.corrupt.count == 14)
        #expect(Self.valid.contains { $0.file == "basi3p04.png" })
    }

    @Test("decodes like the reference within 1", arguments: valid)
    func decodesLikeReference(_ reference: Reference) throws {
        let image = try PNGDecoder().decode(fileAtPath: Fixtures.path("pngsuite/\(reference.file)"))
        #expect(image.width == reference.width)
        #expect(image.height == reference.height)
        let expected = try Fixtures.data("pngsuite-reference/gray.u8")
            .subdata(in: reference.offset..<(reference.offset + reference.width * reference.height))
        let worst = zip(image.pixels, expected).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 1, "largest difference \(worst)")
    }

    @Test("refuses corrupt files with a message", arguments: corrupt)
    func refusesCorrupt(_ reference: Reference) {
        #expect {
            _ = try PNGDecoder().decode(fileAtPath: Fixtures.path("pngsuite/\(reference.file)"))
        } throws: { error in
            guard let error = error as? DigitError else { return false }
            return error.code == .invalidImage && error.subject?.hasSuffix(reference.file) == true && !error.message.isEmpty
        }
    }

    @Test("interlaced and plain files of one picture decode to the same pixels")
    func interlacingDoesNotChangePixels() throws {
        for plain in Self.valid where plain.file.hasPrefix("basn") {
            let interlaced = "basi" + plain.file.dropFirst(4)
            let a = try PNGDecoder().decode(fileAtPath: Fixtures.path("pngsuite/\(plain.file)"))
            let b = try PNGDecoder().decode(fileAtPath: Fixtures.path("pngsuite/\(interlaced)"))
            #expect(a == b, "\(plain.file) vs \(interlaced)")
        }
    }

    @Test("refuses images over the pixel ceiling before decoding them")
    func enforcesPixelCeiling() {
        // basn0g08 is 32x32 = 1024 pixels.
        #expect(throws: DigitError(.imageTooLarge, "image is 32x32 pixels, over the limit of 1000 pixels",
                                   subject: Fixtures.path("pngsuite/basn0g08.png"))) {
            _ = try PNGDecoder(maxPixels: 1000).decode(fileAtPath: Fixtures.path("pngsuite/basn0g08.png"))
        }
    }

    @Test("names the cause of common mistakes")
    func namesCauses() throws {
        let decoder = PNGDecoder()
        #expect(throws: DigitError(.invalidImage, "empty file")) { _ = try decoder.decode(bytes: []) }
        #expect(throws: DigitError(.invalidImage, "not a PNG file (bad signature)")) {
            _ = try decoder.decode(bytes: Array("hello, world".utf8))
        }
        #expect(throws: DigitError(.invalidImage, "truncated PNG (4 bytes)")) {
            _ = try decoder.decode(bytes: [0x89, 0x50, 0x4E, 0x47])
        }
        #expect(throws: DigitError(.fileNotFound, "no such file", subject: "/no/such/file.png")) {
            _ = try decoder.decode(fileAtPath: "/no/such/file.png")
        }
        #expect(throws: DigitError(.unreadableFile, "is a folder, not an image", subject: Fixtures.path("pngsuite"))) {
            _ = try decoder.decode(fileAtPath: Fixtures.path("pngsuite"))
        }
        let whole = try Array(Fixtures.data("pngsuite/basn2c08.png"))
        #expect(throws: DigitError.self) { _ = try decoder.decode(bytes: Array(whole.prefix(whole.count / 2))) }
    }
}
