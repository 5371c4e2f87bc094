@testable import DigitKit
import Foundation
import Testing
import TestSupport

/// One entry point for every format: detection by content, the formats
/// digits names but does not read, and `digits classify` end to end on a
/// mix of good and broken JPEG, PNM and EXIF files.
@Suite("Image formats")
struct ImageFormatsTests {
    static func hostile(_ name: String) -> String { Fixtures.path("hostile/\(name)") }
    static func format(_ name: String) -> String { Fixtures.path("formats/\(name)") }

    @Test("formats are told by their first bytes, never by the name")
    func detection() throws {
        #expect(ImageFormat.detect(try Fixtures.data("formats/seven-q90.jpg").prefix(8)) == .jpeg)
        #expect(ImageFormat.detect(try Fixtures.data("formats/upright.png").prefix(8)) == .png)
        for file in ["p1-bitmap.pbm", "p2-8bit-comments.pgm", "p3-8bit.ppm", "p4-bitmap.pbm", "p5-8bit.pgm", "p6-8bit.ppm"] {
            #expect(ImageFormat.detect(try Fixtures.data("formats/\(file)").prefix(8)) == .pnm, "\(file)")
        }
        #expect(ImageFormat.detect(Array("P2 is my favourite".utf8)) == nil)
        #expect(ImageFormat.detect(Array("P5\n   ".utf8)) == .pnm)
        #expect(ImageFormat.detect(Array("P6#x\n".utf8)) == .pnm)
        #expect(ImageFormat.detect(Array("P7\n".utf8)) == nil)
        #expect(ImageFormat.detect([0xFF, 0xD8]) == nil)
        #expect(ImageFormat.cutOffSignature([0xFF, 0xD8]) == .jpeg)
        #expect(ImageFormat.cutOffSignature([0x89, 0x50]) == .png)
        #expect(ImageFormat.cutOffSignature([0x89, 0x51]) == nil)
    }

    /// A file of another format, and the start of what digits must say.
    static let otherFormats: [(String, String)] = [
        ("format.gif", "a GIF image, which digits does not read; convert it to PNG first (for example: convert in.gif out.png, or ffmpeg -i in.gif out.png)"),
        ("format.webp", "a WebP image, which digits does not read; convert it to PNG first (for example: dwebp in.webp -o out.png"),
        ("format.heic", "a HEIC/HEIF image, which digits does not read; convert it to PNG first"),
        ("format.avif", "an AVIF image, which digits does not read; convert it to PNG first"),
        ("format.tiff", "a TIFF image, which digits does not read; convert it to PNG first"),
        ("format.bmp", "a BMP image, which digits does not read; convert it to PNG first"),
        ("format.pdf", "a PDF document, which digits does not read; convert it to PNG first"),
        ("format.svg", "an SVG drawing, which digits does not read; convert it to PNG first"),
    ]

    @Test("other formats are named, with a command that converts them", arguments: otherFormats)
    func namesOtherFormats(file: String, message: String) {
        #expect {
            _ = try ImageDecoder().decode(fileAtPath: Self.hostile(file))
        } throws: { error in
            guard let error = error as? DigitError else { return false }
            return error.code == .invalidImage && error.message.hasPrefix(message) && !error.message.contains("\n")
        }
    }

    @Test("more signatures: JPEG XL, JPEG 2000, PAM, big-endian TIFF, MP4 and text are told apart")
    func moreSignatures() {
        func identify(_ bytes: [UInt8]) -> String? { UnsupportedFormat.identify(bytes)?.name }
        #expect(identify([0xFF, 0x0A, 0x01]) == "a JPEG XL image")
        #expect(identify([0, 0, 0, 0x0C] + Array("JXL \r\n".utf8) + [0x87, 0x0A]) == "a JPEG XL image")
        #expect(identify([0, 0, 0, 0x0C] + Array("jP  \r\n".utf8) + [0x87, 0x0A]) == "a JPEG 2000 image")
        #expect(identify(Array("P7\nWIDTH 2\n".utf8)) == "a PAM image (P7)")
        #expect(identify(Array("MM\0*\0\0\0\u{8}".utf8)) == "a TIFF image")
        #expect(identify([0, 0, 0, 0x18] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isomiso2".utf8)) == nil)
        #expect(identify([0, 0, 0, 0x18] + Array("ftypmif1".utf8) + [0, 0, 0, 0] + Array("mif1avif".utf8)) == "an AVIF image")
        #expect(identify(Array("BM is a band".utf8)) == nil)
        #expect(identify(Array("<?xml version=\"1.0\"?><note/>".utf8)) == nil)
        #expect(identify([0xEF, 0xBB, 0xBF] + Array("\n <svg/>".utf8)) == "an SVG drawing")
    }

    @Test("empty, cut-off and unknown bytes")
    func unreadable() {
        let decoder = ImageDecoder()
        #expect(throws: DigitError(.invalidImage, "empty file")) { _ = try decoder.decode(bytes: []) }
        #expect(throws: DigitError(.invalidImage, "truncated PNG (4 bytes)")) { _ = try decoder.decode(bytes: [0x89, 0x50, 0x4E, 0x47]) }
        #expect(throws: DigitError(.invalidImage, "truncated JPEG (1 byte)")) { _ = try decoder.decode(bytes: [0xFF]) }
        #expect(throws: DigitError(.invalidImage, "not an image digits can read (PNG, JPEG or PNM)")) {
            _ = try decoder.decode(bytes: Array("hello, world".utf8))
        }
    }

    @Test("the shipped model reads Examples/seven.png saved as a quality-90 JPEG as a 7")
    func sevenAsJPEG() throws {
        let classifier = try DigitClassifier(modelPath: Fixtures.shippedModel)
        let prediction = try #require(try classifier.classify(fileAtPath: Self.format("seven-q90.jpg")))
        #expect(prediction.digit == 7)
        #expect(prediction.confidence > 0.9)
    }

    /// Broken files of the new formats and the line digits must print for each.
    static let brokenFiles: [(String, String)] = [
        ("jpeg-truncated-in-scan.jpg", "truncated JPEG: the file ends inside the image data"),
        ("jpeg-truncated-in-dht.jpg", "truncated JPEG: the file ends inside the DHT segment"),
        ("jpeg-progressive-truncated.jpg", "truncated JPEG: the file ends inside the image data"),
        ("jpeg-corrupt-huffman.jpg", "corrupt JPEG: bad Huffman code"),
        ("jpeg-zero-width.jpg", "corrupt JPEG: the image is 0x28 pixels"),
        ("jpeg-huge-dimensions.jpg", "image is 60000x60000 pixels, over the limit of 67108864 pixels"),
        ("pnm-absurd-width.pgm", "corrupt PNM: the width has more than 10 digits"),
        ("pnm-maxval-0.pgm", "corrupt PNM: the maxval is 0, outside 1-65535"),
        ("pnm-truncated.ppm", "truncated PNM: the file ends inside the pixel data (500 of 900 bytes)"),
        ("pnm-garbage.pgm", "corrupt PNM: 'x' in the pixel data, where a number should be"),
        ("format.gif", UnsupportedFormat.gif.message),
        ("format.heic", UnsupportedFormat.heif.message),
        ("format.webp", UnsupportedFormat.webp.message),
        ("format.tiff", UnsupportedFormat.tiff.message),
        ("format.bmp", UnsupportedFormat.bmp.message),
    ]

    /// Good pictures in the new formats (or with broken EXIF) and the digit each shows.
    static let goodFiles: [(String, Int)] = [
        ("formats/seven-q90.jpg", 7),
        ("formats/orientation-6.jpg", 7),
        ("formats/orientation-7.png", 7),
        ("hostile/exif-ifd-loop.jpg", 7),
        ("hostile/exif-offset-outside.png", 7),
        ("hostile/exif-orientation-9.jpg", 7),
    ]

    @Test("digits classify: each broken file its own line, the good ones still classified, exit 1")
    func classifyMixedFiles() throws {
        var files: [String] = []
        for (index, broken) in Self.brokenFiles.enumerated() {
            files.append(Self.hostile(broken.0))
            if index < Self.goodFiles.count { files.append(Fixtures.path(Self.goodFiles[index].0)) }
        }
        let result = try CommandRunner.digits(["classify"] + files)
        #expect(result.status == 1)
        #expect(result.stderrLines == Self.brokenFiles.map { "digits: \(Self.hostile($0.0)): \($0.1)" })
        #expect(result.stdoutLines.count == Self.goodFiles.count)
        for ((file, digit), line) in zip(Self.goodFiles, result.stdoutLines) {
            #expect(line.hasPrefix("\(Fixtures.path(file)): \(digit) ("), "\(line)")
        }
    }

    @Test("digits ascii and preprocess read JPEG and PNM too; a GIF is named")
    func otherCommands() throws {
        let ascii = try CommandRunner.digits(["ascii", Self.format("seven-q90.jpg")])
        #expect(ascii.status == 0 && ascii.stdoutLines.count == 28)
        let preprocess = try CommandRunner.digits(["preprocess", "--json", Self.format("p6-8bit.ppm")])
        #expect(preprocess.status == 0 && preprocess.stdout.contains("\"tensor\": ["))
        let gif = try CommandRunner.digits(["ascii", Self.hostile("format.gif")])
        #expect(gif.status == 1)
        #expect(gif.stderrLines == ["digits: \(Self.hostile("format.gif")): \(UnsupportedFormat.gif.message)"])
    }

    @Test("a folder walk picks up JPEG and PNM files by content, and other picture formats to refuse them")
    func folderWalk() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("formats-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (source, name) in [("formats/seven-q90.jpg", "a-photo"), ("formats/p5-8bit.pgm", "b.pgm"), ("hostile/format.gif", "c.png"),
                               ("formats/upright.png", "d.png")] {
            try FileManager.default.copyItem(atPath: Fixtures.path(source), toPath: "\(folder)/\(name)")
        }
        let names = ImageFolder(path: folder).map(\.origin.name)
        #expect(names == ["\(folder)/a-photo", "\(folder)/b.pgm", "\(folder)/c.png", "\(folder)/d.png"])
    }

    @Test("--orientation: phone photos are turned upright unless told to ignore the tag", arguments: [3, 6, 8])
    func orientationOption(orientation: Int) throws {
        let photo = Self.format("orientation-\(orientation).jpg")
        let upright = try CommandRunner.digits(["preprocess", "--json", Self.format("orientation-1.jpg")])
        let applied = try CommandRunner.digits(["preprocess", "--json", photo])
        let ignored = try CommandRunner.digits(["preprocess", "--json", "--orientation", "ignore", photo])
        let tensor = { (result: CommandResult) throws -> [Double] in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            return try #require(object["tensor"] as? [Double])
        }
        let reference = try tensor(upright)
        let closeness = { (values: [Double]) in zip(values, reference).map { abs($0 - $1) }.max()! }
        // JPEG stores the turned picture with its own rounding: close to the upright one, not equal.
        #expect(closeness(try tensor(applied)) < 0.5)
        #expect(closeness(try tensor(ignored)) > 1.5)
        let classified = try CommandRunner.digits(["classify", photo])
        #expect(classified.stdout.hasPrefix("\(photo): 7 ("), "\(classified.stdout)")
    }
}
