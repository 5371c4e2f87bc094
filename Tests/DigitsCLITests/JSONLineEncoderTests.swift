import DigitsJSON
import Foundation
import Testing
@testable import digits
import TestSupport

/// The one encoder of every `--json` line: keys in the order written, the
/// documented spelling of numbers, null for nil, nothing for absent.
@Suite("JSON line encoder")
struct JSONLineEncoderTests {
    struct Nested: Encodable {
        let zebra: Int
        let apple: [String]
        let maybe: Double?

        private enum CodingKeys: String, CodingKey { case zebra, apple, maybe, empty }

        func encode(to encoder: any Encoder) throws {
            var object = encoder.container(keyedBy: CodingKeys.self)
            try object.encode(zebra, forKey: .zebra)
            try object.encode(apple, forKey: .apple)
            try object.encodeIfPresent(maybe, forKey: .maybe)
            try object.encodeNil(forKey: .empty)
        }
    }

    @Test("keys come in the order encode(to:) writes them, not sorted")
    func keyOrder() throws {
        let line = JSONLineEncoder().line(Nested(zebra: 3, apple: ["a", "b"], maybe: nil))
        #expect(line == #"{"zebra": 3, "apple": ["a", "b"], "empty": null}"#)
    }

    @Test("numbers: float32's shortest text, fixed decimals for measurements, null for what is not finite")
    func numbers() throws {
        let encoder = JSONLineEncoder()
        #expect(encoder.line(Double(Float(0.99812))) == "0.99812")
        #expect(encoder.line(0.99999994) == "0.99999994")
        #expect(encoder.line([Float(1), 0.5, -2.25e-06]) == "[1.0, 0.5, -2.25e-06]")
        #expect(encoder.line(FixedDecimal(value: 412.46, places: 1)) == "412.5")
        #expect(encoder.line(FixedDecimal(value: 3.0, places: 2)) == "3")
        #expect(encoder.line(Double.nan) == "null")
        #expect(encoder.line(Double.infinity) == "null")
    }

    @Test("strings: quotes, backslashes and control characters escaped; the line stays one line")
    func strings() throws {
        let line = JSONLineEncoder().line(["a \"b\"\\c\nd\te\u{1}f é"])
        #expect(line == #"["a \"b\"\\c\nd\te\u0001f é"]"#)
        let decoded = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String]
        #expect(decoded == ["a \"b\"\\c\nd\te\u{1}f é"])
    }

    @Test("every command's line types read back as the JSON they claim to be")
    func lineTypesParse() throws {
        let lines = [
            JSONLineEncoder().line(ClassificationLine(file: "a,b.png", index: 2, outcome: .digit(
                7, confidence: 0.5, uncertain: true, warnings: ["several digits"], probabilities: [0.5, 0.5],
                top: [.init(digit: 7, probability: 0.5)]))),
            JSONLineEncoder().line(ClassificationLine(file: "x", index: nil, outcome: .noDigit(reason: "no digit found"))),
            JSONLineEncoder().line(StreamEventLine.end(
                frames: 3, analysed: 2, dropped: 1, framesPerSecond: 9.99, failed: 0, error: "cut off", interrupted: true)),
            JSONLineEncoder().line(PreprocessLine(file: "p", tensor: nil, reason: "no digit found")),
        ]
        #expect(lines[0].hasPrefix(#"{"file": "a,b.png", "index": 2, "digit": 7, "confidence": 0.5, "uncertain": true, "warnings": ["several digits"]"#))
        #expect(lines[1] == #"{"file": "x", "digit": null, "reason": "no digit found"}"#)
        #expect(lines[2] == #"{"event": "end", "frames": 3, "analysed": 2, "dropped": 1, "fps": 10, "error": "cut off", "interrupted": true}"#)
        #expect(lines[3] == #"{"file": "p", "tensor": null, "reason": "no digit found"}"#)
        for line in lines {
            #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any], "\(line)")
        }
    }
}
