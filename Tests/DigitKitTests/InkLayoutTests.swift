import DigitKit
import Foundation
import Testing
import TestSupport

/// Honest uncertainty: a picture of several digits is not answered as one.
@Suite("Several digits in one picture")
struct InkLayoutTests {
    /// MNIST sample digits placed side by side on one black canvas, `gap` pixels apart.
    static func number(_ files: [String], gap: Int) throws -> GrayImage {
        let digits = try files.map { try PNGDecoder().decode(fileAtPath: Fixtures.path("mnist-sample/\($0)")) }
        let margin = 8, width = digits.count * 28 + (digits.count - 1) * gap + 2 * margin, height = 28 + 2 * margin
        var pixels = [UInt8](repeating: 0, count: width * height)
        for (i, digit) in digits.enumerated() {
            for y in 0..<28 {
                for x in 0..<28 { pixels[(y + margin) * width + margin + i * (28 + gap) + x] = digit[x, y] }
            }
        }
        return try GrayImage(width: width, height: height, pixels: pixels)
    }

    /// "2026", "10", "74": MNIST test digits side by side, spaced and close.
    static let numbers = [["0001-2.png", "0003-0.png", "0001-2.png", "0011-6.png"], ["0002-1.png", "0010-0.png"],
                          ["0000-7.png", "0004-4.png"]]

    @Test("numbers of two to four digits are marked 'several digits'", arguments: [0, 6])
    func numbersAreMarked(gap: Int) throws {
        let classifier = DigitClassifier(model: try DigitModel(path: Fixtures.shippedModel))
        let inputs = try Self.numbers.enumerated().map { ClassificationInput.image(try Self.number($1, gap: gap), name: "number \($0)") }
        for result in try classifier.classify(inputs) {
            #expect(result.warnings == [.severalDigits], "\(result.origin.name)")
        }
    }

    /// Dark ink on white paper, 400x400: an ellipse, filled or drawn as a
    /// ring `stroke` pixels wide.
    static func ellipse(stroke: Double?) throws -> GrayImage {
        var pixels = [UInt8](repeating: 235, count: 400 * 400)
        for y in 0..<400 {
            for x in 0..<400 {
                let r = (pow((Double(x) - 200) / 45, 2) + pow((Double(y) - 200) / 70, 2)).squareRoot()
                let inside = stroke.map { r <= 1 && r >= 1 - $0 / 45 } ?? (r <= 1)
                if inside { pixels[y * 400 + x] = 30 }
            }
        }
        return try GrayImage(width: 400, height: 400, pixels: pixels)
    }

    @Test("a filled blob is marked 'a blob, not strokes'; a ring drawn with a pen is not")
    func blobsAreMarked() throws {
        #expect(Preprocessor().process(try Self.ellipse(stroke: nil)).warnings == [.blob])
        #expect(Preprocessor().process(try Self.ellipse(stroke: 10)).warnings.isEmpty)
    }

    @Test("the CLI says why: text, JSON and CSV")
    func cliReportsTheWarning() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("several-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let image = try Self.number(Self.numbers[0], gap: 4)
        let pgm = "\(folder)/2026.pgm"
        try (Data("P5\n\(image.width) \(image.height)\n255\n".utf8) + Data(image.pixels)).write(to: URL(fileURLWithPath: pgm))
        let text = try CommandRunner.digits(["classify", pgm])
        #expect(text.status == 0)
        #expect(text.stdout.range(of: #"^.+2026\.pgm: \d \(\d+\.\d%, uncertain: several digits\)\n$"#, options: .regularExpression) != nil, "\(text.stdout)")
        let json = try CommandRunner.digits(["classify", "--json", pgm])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["uncertain"] as? Bool == true)
        #expect(object["warnings"] as? [String] == ["several digits"])
        let csv = try CommandRunner.digits(["classify", "--format", "csv", pgm])
        #expect(csv.stdoutLines.last?.hasSuffix(",true,several digits") == true, "\(csv.stdout)")
        let single = try CommandRunner.digits(["classify", "--json", Fixtures.path("mnist-sample/0000-7.png")])
        #expect(!single.stdout.contains("warnings"))
    }
}
