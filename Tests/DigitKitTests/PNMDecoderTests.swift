@testable import DigitKit
import Foundation
import Testing
import TestSupport

/// Netpbm decoding (P1-P6, plain and binary, 8- and 16-bit, comments)
/// against Pillow's PPM plugin, and its refusal of malformed files.
@Suite("PNM decoder")
struct PNMDecoderTests {
    static let references = FormatReference.matching { [".pbm", ".pgm", ".ppm"].contains(where: $0.file.hasSuffix) }

    @Test("the fixtures are all there")
    func fixturesArePresent() {
        #expect(Self.references.count == 11)
        for kind in 1...6 { #expect(Self.references.contains { $0.file.hasPrefix("p\(kind)-") }) }
    }

    /// 16-bit grey is compared with Pillow's own scaling of other samples,
    /// round(v / maxval * 255): Pillow itself keeps it as 32-bit integers
    /// that its convert("L") clips at 255 (see PNMDecoder).
    @Test("decodes like Pillow within 1", arguments: references)
    func decodesLikePillow(_ reference: FormatReference) throws {
        let (sameSize, worst) = try reference.comparedWithPillow()
        #expect(sameSize)
        #expect(worst <= 1, "largest difference \(worst)")
    }

    @Test("maxval scaling is Pillow's round(v / maxval * 255), ties to even")
    func scaling() {
        #expect(PNMDecoder.scaleTable(maxval: 255) == (0...255).map { UInt8($0) })
        #expect(PNMDecoder.scaleTable(maxval: 1) == [0, 255])
        // Ties go to the even neighbour, as Python's round does: 127.5 -> 128, 42.5 -> 42, 212.5 -> 212.
        #expect(PNMDecoder.scaleTable(maxval: 2)[1] == 128)
        #expect(PNMDecoder.scaleTable(maxval: 6)[1] == 42 && PNMDecoder.scaleTable(maxval: 6)[5] == 212)
        let sixteen = PNMDecoder.scaleTable(maxval: 65535)
        #expect(sixteen.count == 65536 && sixteen[65535] == 255 && sixteen[128] == 0 && sixteen[129] == 1)
    }

    @Test("headers: any whitespace, comments anywhere between tokens, one byte before a binary raster")
    func headerSyntax() throws {
        let header = try PNMHeader(Array("P5 #c\n\t3\r\n#x\n2 # y\n255\n".utf8) + [10, 32, 9, 0, 1, 2])
        #expect(header.kind == .binaryGray && header.width == 3 && header.height == 2 && header.maxval == 255)
        #expect(header.rasterStart == 23)
        // The raster may start with bytes that look like whitespace or '#'.
        let image = try PNMDecoder().decode(bytes: Array("P5\n3 1\n255\n".utf8) + [10, 35, 32])
        #expect(image.pixels == [10, 35, 32])
        let bitmap = try PNMDecoder().decode(bytes: Array("P1 3 2 1 0\n1#c\n0 0 1".utf8))
        #expect(bitmap.pixels == [0, 255, 0, 255, 255, 0])
    }

    /// A malformed PNM and the cause digits must give for it.
    static let brokenFiles: [(String, DigitError.Code, String)] = [
        ("pnm-absurd-width.pgm", .invalidImage, "corrupt PNM: the width has more than 10 digits"),
        ("pnm-huge-dimensions.pgm", .imageTooLarge, "image is 2000000000x2000000000 pixels, over the limit of 67108864 pixels"),
        ("pnm-maxval-0.pgm", .invalidImage, "corrupt PNM: the maxval is 0, outside 1-65535"),
        ("pnm-maxval-70000.pgm", .invalidImage, "corrupt PNM: the maxval is 70000, outside 1-65535"),
        ("pnm-truncated.ppm", .invalidImage, "truncated PNM: the file ends inside the pixel data (500 of 900 bytes)"),
        ("pnm-plain-truncated.pgm", .invalidImage, "truncated PNM: the file ends after 13 of 16 samples"),
        ("pnm-over-maxval.pgm", .invalidImage, "corrupt PNM: a sample is 300, over the maxval of 255"),
        ("pnm-garbage.pgm", .invalidImage, "corrupt PNM: 'x' in the pixel data, where a number should be"),
        ("pnm-no-size.pgm", .invalidImage, "truncated PNM: the file ends before the width"),
    ]

    @Test("malformed PNMs: a one-line error with the right code", arguments: brokenFiles)
    func refusesBrokenFiles(file: String, code: DigitError.Code, message: String) {
        let path = Fixtures.path("hostile/\(file)")
        #expect(throws: DigitError(code, message, subject: path)) {
            _ = try ImageDecoder().decode(fileAtPath: path)
        }
    }

    @Test("more malformed headers and rasters, in memory", arguments: [
        ("P2\n0 5\n255\n", "corrupt PNM: the width is 0, outside 1-2147483647"),
        ("P2\n5 3000000000\n255\n", "corrupt PNM: the height is 3000000000, outside 1-2147483647"),
        ("P2\n-5 5\n255\n", "corrupt PNM: the width is not a number"),
        ("P2\n5x 5\n255\n", "corrupt PNM: the width is not a number"),
        ("P6\n2 2\n255", "truncated PNM: the file ends before the pixel data"),
        ("P6\n2 2\n65535\n\0\0\0", "truncated PNM: the file ends inside the pixel data (3 of 24 bytes)"),
        ("P5\n2 1\n100\n\u{7F}\0", "corrupt PNM: a sample is 127, over the maxval of 100"),
        ("P2\n1000 1000\n255\n1 2 3", "truncated PNM: the file is too short for the 1000000 samples its header declares"),
        ("P2\n2 1\n255\n12345678901 0", "corrupt PNM: a sample has more than 10 digits"),
        ("P1\n2 2\n0 1 2 0", "corrupt PNM: '2' in a bitmap's pixel data, where 0 or 1 should be"),
        ("P4\n9 2\n\u{1}", "truncated PNM: the file ends inside the pixel data (1 of 4 bytes)"),
        ("P3\n1 1\n255\n1 2", "truncated PNM: the file is too short for the 3 samples its header declares"),
    ])
    func refusesMalformed(text: String, message: String) {
        // PNMDecoder itself: "P2\n-5" does not even look like PNM to ImageDecoder's detection.
        #expect(throws: DigitError(.invalidImage, message)) { _ = try PNMDecoder().decode(bytes: Array(text.utf8)) }
    }

    @Test("the pixel ceiling is checked before the raster is read")
    func ceiling() {
        let path = Fixtures.path("formats/p6-8bit.ppm")
        #expect(throws: DigitError(.imageTooLarge, "image is 20x15 pixels, over the limit of 299 pixels", subject: path)) {
            _ = try ImageDecoder(maxPixels: 299).decode(fileAtPath: path)
        }
    }
}
