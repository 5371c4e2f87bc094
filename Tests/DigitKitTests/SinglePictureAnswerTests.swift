import DigitKit
import Foundation
import Testing
import TestSupport

/// The library's single-picture answer carries the warnings and the
/// uncertain mark, from the same rule `digits classify` applies.
@Suite("Single-picture answer")
struct SinglePictureAnswerTests {
    static let examples = Fixtures.repositoryRoot.appendingPathComponent("Examples").path

    /// "2026" from MNIST test digits side by side, written as a PGM in a new temporary folder.
    static func severalDigitsFile() throws -> (folder: String, path: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("answer-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let image = try InkLayoutTests.number(InkLayoutTests.numbers[0], gap: 4)
        let path = "\(folder)/2026.pgm"
        try (Data("P5\n\(image.width) \(image.height)\n255\n".utf8) + Data(image.pixels)).write(to: URL(fileURLWithPath: path))
        return (folder, path)
    }

    @Test("a picture of several digits answers with the warning and uncertain, from a file, bytes and an image")
    func severalDigitsCarryTheWarning() throws {
        let classifier = DigitClassifier(model: try DigitModel(path: Fixtures.shippedModel))
        let file = try Self.severalDigitsFile()
        defer { try? FileManager.default.removeItem(atPath: file.folder) }
        let answers = [try classifier.classification(ofFileAtPath: file.path),
                       try classifier.classification(ofImageBytes: Array(try Data(contentsOf: URL(fileURLWithPath: file.path)))),
                       try classifier.classification(of: try InkLayoutTests.number(InkLayoutTests.numbers[0], gap: 4))]
        for answer in answers {
            #expect(answer.prediction != nil)
            #expect(answer.warnings == [.severalDigits])
            #expect(answer.isUncertain)
        }
    }

    @Test("a clear digit is certain, uncertain under a threshold of 1; a blank picture is no digit")
    func thresholdAndNoDigit() throws {
        var classifier = DigitClassifier(model: try DigitModel(path: Fixtures.shippedModel))
        let seven = try classifier.classification(ofFileAtPath: "\(Self.examples)/seven.png")
        #expect(seven.prediction?.digit == 7)
        #expect(seven.warnings.isEmpty)
        #expect(!seven.isUncertain)
        classifier.uncertainty = UncertaintyRule(uncertainBelow: 1)
        #expect(try classifier.classification(ofFileAtPath: "\(Self.examples)/seven.png").isUncertain)
        let blank = try classifier.classification(ofFileAtPath: "\(Self.examples)/blank-paper.png")
        guard case .noDigit = blank.outcome else { Issue.record("blank paper answered \(blank.outcome)"); return }
        #expect(!blank.isUncertain)
    }

    @Test("the rule: below the threshold or with a warning; at the threshold certain; a confidence that is not a number uncertain")
    func rule() {
        let sure = Prediction(logProbabilities: [Float](repeating: log(0.1), count: 10))
        let rule = UncertaintyRule(uncertainBelow: sure.confidence)
        #expect(!rule.isUncertain(sure, warnings: []))
        #expect(rule.isUncertain(sure, warnings: [.blob]))
        #expect(UncertaintyRule(uncertainBelow: sure.confidence.nextUp).isUncertain(sure, warnings: []))
        #expect(UncertaintyRule().isUncertain(Prediction(logProbabilities: [Float](repeating: .nan, count: 10)), warnings: []))
    }

    @Test("the CLI and the library agree on uncertain, picture by picture", arguments: [UncertaintyRule.defaultThreshold, 0.99])
    func cliAndLibraryAgree(threshold: Double) throws {
        let file = try Self.severalDigitsFile()
        defer { try? FileManager.default.removeItem(atPath: file.folder) }
        let paths = [file.path] + ["seven.png", "two.png", "five-transparent.png", "eight-photo-400.png", "three-on-paper.png"]
            .map { "\(Self.examples)/\($0)" } + RealWorldFixture.all.prefix(40).map(\.path)
        var classifier = DigitClassifier(model: try DigitModel(path: Fixtures.shippedModel))
        classifier.uncertainty = UncertaintyRule(uncertainBelow: threshold)
        let csv = try CommandRunner.digits(["classify", "--format", "csv", "--uncertain-below", String(threshold)] + paths)
        #expect(csv.status == 0, "\(csv.stderr)")
        let rows = csv.stdoutLines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.count == paths.count)
        var uncertainCount = 0
        for (path, row) in zip(paths, rows) {
            let answer = try classifier.classification(ofFileAtPath: path)
            #expect(row[3] == (answer.prediction.map { String($0.digit) } ?? ""), "\(path)")
            #expect(row[5] == (answer.prediction == nil ? "" : String(answer.isUncertain)), "\(path)")
            if answer.isUncertain { uncertainCount += 1 }
        }
        // Both kinds are compared: not every picture is certain.
        #expect(uncertainCount > 0)
        #expect(uncertainCount < paths.count)
    }
}
