import Foundation
import Testing
import TestSupport

/// Pictures from an evaluation generator (Tests/Eval/generator_a, seed 5150:
/// Tests/Fixtures/held-out/labels.tsv) that no rule or model was tuned on: a
/// digit on ruled and on squared paper, meter digits, strokes in the alpha
/// channel, blank sheets, letters, symbols and scribbles; and one blank of
/// seed 29112, on which 0.33.0's subject gate was chosen (so not held out
/// from it), through the CLI
/// with the shipped ink locator and classifier. The whole sets are measured
/// per kind by scripts/test-held-out; these few guard the answers the
/// README shows.
@Suite("Held-out sample pictures")
struct HeldOutSampleTests {
    struct Picture: CustomStringConvertible {
        let file: String, kind: String, expect: String
        var description: String { file }
    }

    static let pictures: [Picture] = ((try? Fixtures.tsv("held-out/labels.tsv")) ?? []).dropFirst().map {
        Picture(file: $0[0], kind: $0[1], expect: $0[2])
    }

    static func answers() throws -> [String: [String: Any]] {
        let result = try CommandRunner.digits(["classify", "--json"] + pictures.map { Fixtures.path("held-out/\($0.file)") })
        #expect(result.status == 0, "\(result.stderr)")
        var answers: [String: [String: Any]] = [:]
        for line in result.stdoutLines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            answers[((object["file"] as? String) ?? "").components(separatedBy: "/").last!] = object
        }
        return answers
    }

    /// The digits a shipped model is known to miss, each with why: a
    /// retrained model trades single pictures, and the generators' whole
    /// sets say whether the trade was worth it (docs/accuracy.md).
    static let knownMisses: Set<String> = [
        // The 128-px locator (0.12.0) locates the window around this tiny
        // meter "1", not the digit, and answers "not a digit (99.9%)"; the
        // 96-px one read it.
        "meter_0001.png",
    ]

    @Test("every digit on ruled or squared paper, on a meter or in the alpha channel is read but the known misses; blank sheets have none")
    func digitsAndBlanks() throws {
        #expect(Self.pictures.count >= 20)
        let answers = try Self.answers()
        for picture in Self.pictures where picture.expect != "reject" && !Self.knownMisses.contains(picture.file) {
            let answer = try #require(answers[picture.file], "\(picture)")
            if picture.expect == "none" {
                #expect(answer["digit"] is NSNull, "\(picture): \(answer)")
            } else {
                #expect((answer["digit"] as? Int) == Int(picture.expect), "\(picture): \(answer)")
            }
        }
    }

    @Test("letters, symbols and scribbles get no confident digit: \"not a digit\" or an uncertain mark, all but one")
    func notDigits() throws {
        let answers = try Self.answers()
        let rejects = Self.pictures.filter { $0.expect == "reject" }
        #expect(rejects.count >= 8)
        let confident = rejects.filter { picture in
            guard let answer = answers[picture.file], answer["digit"] is Int else { return false }
            return (answer["uncertain"] as? Bool) == false
        }
        #expect(confident.count <= 1, "\(confident)")
        let notADigit = rejects.filter { (answers[$0.file]?["reason"] as? String) == "not a digit" }
        #expect(notADigit.count * 2 >= rejects.count, "most are answered \"not a digit\": \(notADigit.count) of \(rejects.count)")
        for picture in notADigit {
            let probability = try #require(answers[picture.file]?["not_a_digit"] as? Double)
            #expect(probability >= 0.9 && probability <= 1)
        }
    }

    @Test("\"not a digit\" in text and CSV, with its probability")
    func formats() throws {
        let letter = Fixtures.path("held-out/letter_0003.jpg")
        let text = try CommandRunner.digits(["classify", letter])
        #expect(text.stdout.hasPrefix("\(letter): not a digit ("))
        let csv = try CommandRunner.digits(["classify", "--format", "csv", letter])
        #expect(csv.stdoutLines.count == 2)
        #expect(csv.stdoutLines[1].hasPrefix("\(letter),,not_a_digit,,0.9"))
        #expect(csv.stdoutLines[1].hasSuffix(",,not a digit"))
    }
}
