import Foundation
import Testing
import TestSupport

/// `classify --top K` after "not a digit": the digits the model ranks
/// beneath it, so that a digit taken for no digit shows which it was near.
@Suite("--top after 'not a digit'")
struct NotADigitRankingTests {
    static let letter = Fixtures.repositoryRoot.appendingPathComponent("Examples/letter-p.jpg").path

    static func json(_ options: [String]) throws -> [String: Any] {
        let result = try CommandRunner.digits(["classify", "--json"] + options + [letter])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test("JSON: the K digits beneath 'not a digit', most probable first, after not_a_digit; none without --top")
    func json() throws {
        let object = try Self.json(["--top", "3"])
        #expect(object["reason"] as? String == "not a digit")
        let notADigit = try #require(object["not_a_digit"] as? Double)
        #expect(notADigit >= 0.9)
        let top = try #require(object["top"] as? [[String: Any]])
        let digits = top.compactMap { $0["digit"] as? Int }, probabilities = top.compactMap { $0["probability"] as? Double }
        #expect(digits.count == 3 && probabilities.count == 3)
        #expect(Set(digits).count == 3 && digits.allSatisfy((0...9).contains))
        #expect(probabilities == probabilities.sorted(by: >))
        #expect(probabilities.allSatisfy { $0 >= 0 && $0 < notADigit })
        #expect(probabilities.reduce(notADigit, +) <= 1 + 1e-6)

        let bare = try Self.json([])
        #expect(bare["top"] == nil)
        #expect(bare["not_a_digit"] as? Double == notADigit)
        #expect(Array(bare.keys).sorted() == ["digit", "file", "not_a_digit", "reason"])
    }

    @Test("text: the ranking follows 'not a digit' from --top 1 on, as JSON ranks it")
    func text() throws {
        let top = try #require(try Self.json(["--top", "2"])["top"] as? [[String: Any]])
        let first = try #require(top.first?["digit"] as? Int), second = try #require(top.last?["digit"] as? Int)
        for (k, expected) in [(1, "top 1: \(first) "), (2, "top 2: \(first) ")] {
            let result = try CommandRunner.digits(["classify", "--top", "\(k)", Self.letter])
            #expect(result.status == 0)
            let line = try #require(result.stdoutLines.first)
            #expect(line.range(of: #"^.+letter-p\.jpg: not a digit \(\d{1,3}\.\d%\)  top \#(k): \d \d{1,3}\.\d%(, \d \d{1,3}\.\d%)*$"#,
                               options: .regularExpression) != nil, "\(line)")
            #expect(line.contains(expected), "\(line)")
            #expect(k == 1 || line.contains(", \(second) "), "\(line)")
        }
        let plain = try CommandRunner.digits(["classify", Self.letter])
        #expect(plain.stdoutLines.first?.range(of: #"not a digit \(\d{1,3}\.\d%\)$"#, options: .regularExpression) != nil, "\(plain.stdout)")
    }
}
