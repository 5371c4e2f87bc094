@testable import DigitKit
import Foundation
import Testing
import TestSupport

/// JPEG decoding (libjpeg-turbo's TurboJPEG API) against Pillow, which
/// decodes with the same library and settings: baseline, optimized,
/// progressive, arithmetic-coded and with restart markers; 4:2:0, 4:2:2 and
/// 4:4:4; grey, Adobe CMYK and YCCK; qualities 20 to 100; odd sizes. Pixels within 1 of `Image.open(p).convert("L")`
/// (in practice equal: same IDCT, same upsampling, same luma integers).
@Suite("JPEG decoder")
struct JPEGDecoderTests {
    static let references = FormatReference.matching { $0.file.hasSuffix(".jpg") && !$0.file.hasPrefix("orientation-") }

    @Test("the fixtures are all there")
    func fixturesArePresent() {
        #expect(Self.references.count == 19)
        for file in ["ycck-q90.jpg", "arithmetic-progressive-q90-420.jpg", "restart-markers-q90-420.jpg"] {
            #expect(Self.references.contains { $0.file == file })
        }
        #expect(Self.references.filter { $0.decoding.hasPrefix("maxSide=") }.count == 3)
    }

    @Test("decodes like Pillow within 1", arguments: references)
    func decodesLikePillow(_ reference: FormatReference) throws {
        let (sameSize, worst) = try reference.comparedWithPillow()
        #expect(sameSize)
        #expect(worst <= 1, "largest difference \(worst)")
    }

    @Test("maxSide picks the strongest of 1/2, 1/4, 1/8 that keeps the longer side", arguments: [
        (nil, 1999, 1333), (2000, 1999, 1333), (1999, 1999, 1333), (1500, 1999, 1333), (1000, 1000, 667),
        (999, 1000, 667), (512, 1000, 667), (500, 500, 334), (300, 500, 334), (250, 250, 167), (100, 250, 167), (1, 250, 167),
    ] as [(Int?, Int, Int)])
    func reducedSizeDimensions(maxSide: Int?, width: Int, height: Int) throws {
        let image = try ImageDecoder(maxSide: maxSide).decode(fileAtPath: Fixtures.path("formats/large-1999x1333.jpg"))
        #expect(image.width == width && image.height == height)
    }

    @Test("the scale choice: a 4000x3000 photo for the 512-pixel analysis decodes at 1000x750")
    func scaleChoice() {
        let available = JPEGScale.available
        #expect(available.contains(JPEGScale(numerator: 1, denominator: 8)))
        let photo = JPEGScale.choose(width: 4000, height: 3000, maxSide: Preprocessor.analysisSide, available: available)
        #expect(photo == JPEGScale(numerator: 1, denominator: 4))
        #expect(photo.scaled(4000) == 1000 && photo.scaled(3000) == 750)
        #expect(JPEGScale.choose(width: 3000, height: 4000, maxSide: 512, available: available).scaled(4000) == 1000)
        #expect(JPEGScale.choose(width: 512, height: 100, maxSide: 512, available: available) == .full)
        #expect(JPEGScale.choose(width: 1000, height: 10, maxSide: 600, available: available) == .full)
        #expect(JPEGScale.choose(width: 4000, height: 3000, maxSide: 512, available: []) == .full)
        // Factors other than 1/2, 1/4, 1/8 (TurboJPEG also offers 3/8, 7/8, ...) are not used.
        #expect(JPEGScale.choose(width: 800, height: 800, maxSide: 300, available: [JPEGScale(numerator: 3, denominator: 8)]) == .full)
        #expect(JPEGScale(numerator: 1, denominator: 8).scaled(1) == 1)
    }

    @Test("the pixel ceiling counts the full size, even when decoding reduced")
    func ceilingAtFullSize() {
        // 1999 x 1333 = 2,664,667 pixels.
        let path = Fixtures.path("formats/large-1999x1333.jpg")
        #expect(throws: DigitError(.imageTooLarge, "image is 1999x1333 pixels, over the limit of 2000000 pixels", subject: path)) {
            _ = try ImageDecoder(maxPixels: 2_000_000, maxSide: 100).decode(fileAtPath: path)
        }
    }

    @Test("CMYK: Pillow's inverted-CMYK reading and CMYK to RGB arithmetic")
    func cmykArithmetic() {
        // Stored (Adobe, inverted) samples: 255 is no ink. No ink at all is white.
        #expect(CMYKConversion.gray(storedCMYK: [255, 255, 255, 255]) == [255])
        // Full black ink (stored K = 0) is black whatever the colour.
        #expect(CMYKConversion.gray(storedCMYK: [17, 200, 255, 0]) == [0])
        // Full cyan, no black: Pillow gives RGB (0, 255, 255), luma 179.
        #expect(CMYKConversion.rgbChannel(stored: 0, storedBlack: 255) == 0)
        #expect(CMYKConversion.gray(storedCMYK: [0, 255, 255, 255]) == [GrayConversion.luma(red: 0, green: 255, blue: 255)])
        // Pillow's MULDIV255 rounds: 128 * 128 / 255 = 64.25 -> 64; 255 * 255 / 255 = 255.
        #expect(CMYKConversion.mulDiv255(128, 128) == 64 && CMYKConversion.mulDiv255(255, 255) == 255)
    }

    /// A broken JPEG and the cause digits must give for it (Tests/Fixtures/hostile).
    static let brokenFiles: [(String, DigitError.Code, String)] = [
        ("jpeg-truncated-at-3.jpg", .invalidImage, "truncated JPEG: the file ends before the image data (SOS segment)"),
        ("jpeg-truncated-in-dht.jpg", .invalidImage, "truncated JPEG: the file ends inside the DHT segment"),
        ("jpeg-truncated-before-sos.jpg", .invalidImage, "truncated JPEG: the file ends before the image data (SOS segment)"),
        ("jpeg-truncated-in-scan.jpg", .invalidImage, "truncated JPEG: the file ends inside the image data"),
        ("jpeg-truncated-before-eoi.jpg", .invalidImage, "truncated JPEG: the file ends inside the image data"),
        ("jpeg-progressive-truncated.jpg", .invalidImage, "truncated JPEG: the file ends inside the image data"),
        ("jpeg-restart-markers-truncated.jpg", .invalidImage, "truncated JPEG: the file ends inside the image data"),
        ("jpeg-corrupt-huffman.jpg", .invalidImage, "corrupt JPEG: bad Huffman code"),
        ("jpeg-zero-width.jpg", .invalidImage, "corrupt JPEG: the image is 0x28 pixels"),
        ("jpeg-huge-dimensions.jpg", .imageTooLarge, "image is 60000x60000 pixels, over the limit of 67108864 pixels"),
        ("jpeg.png", .invalidImage, "corrupt JPEG: byte 20 should start a marker but is 0x00"),
    ]

    @Test("broken JPEGs: a one-line error with the right code", arguments: brokenFiles)
    func refusesBrokenFiles(file: String, code: DigitError.Code, message: String) {
        let path = Fixtures.path("hostile/\(file)")
        #expect(throws: DigitError(code, message, subject: path)) {
            _ = try ImageDecoder().decode(fileAtPath: path)
        }
    }

    @Test("a JPEG cut off anywhere is refused, never decoded half grey")
    func truncatedEverywhere() throws {
        for file in ["seven-q90.jpg", "progressive-q85-420.jpg", "cmyk-q90.jpg", "restart-markers-q90-420.jpg"] {
            let whole = Array(try Fixtures.data("formats/\(file)"))
            for length in stride(from: 1, to: whole.count, by: 7) {
                #expect(throws: DigitError.self, "\(file) cut at \(length)") {
                    _ = try ImageDecoder().decode(bytes: Array(whole.prefix(length)))
                }
            }
        }
    }

    @Test("kinds of JPEG libjpeg-turbo does not decode are named, not called corrupt")
    func unsupportedKinds() throws {
        let seven = Array(try Fixtures.data("formats/seven-q90.jpg"))
        let sof = try #require(seven.indices.first { seven[$0] == 0xFF && seven[$0 + 1] == 0xC0 })
        var lossless = seven
        lossless[sof + 1] = 0xC3
        #expect(throws: DigitError(.invalidImage, "unsupported JPEG: a lossless or hierarchical JPEG (SOF3), which libjpeg-turbo does not decode; convert it to PNG first")) {
            _ = try JPEGDecoder().decode(bytes: lossless)
        }
        var twelveBit = seven
        twelveBit[sof + 4] = 12
        #expect(throws: DigitError(.invalidImage, "unsupported JPEG: 12-bit samples; digits reads 8-bit JPEGs only")) {
            _ = try JPEGDecoder().decode(bytes: twelveBit)
        }
        var twoComponents = seven
        twoComponents[sof + 9] = 2
        #expect(throws: DigitError(.invalidImage, "unsupported JPEG: 2 colour components; digits reads 1 (grey), 3 (colour) or 4 (CMYK)")) {
            _ = try JPEGDecoder().decode(bytes: twoComponents)
        }
    }

    @Test("libjpeg's messages come on one line, without a repeated 'Corrupt JPEG data'")
    func messagesOnOneLine() {
        #expect(JPEGDecoder.oneLine("Corrupt JPEG data: bad Huffman code") == "bad Huffman code")
        #expect(JPEGDecoder.oneLine("first\nsecond") == "first second")
    }
}
