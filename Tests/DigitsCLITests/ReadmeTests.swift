import Foundation
import Testing
import TestSupport

/// Every console example of the README runs from the checkout as written
/// and prints what the README shows, so that the README cannot drift from
/// the program. Timings (frames and images per second, latencies) and the
/// machine's core count are the only parts compared loosely.
@Suite("README console examples")
struct ReadmeTests {
    /// One `$ command` of a console block and the output shown under it.
    struct Example: CustomStringConvertible {
        let command: String
        let expected: String
        var description: String { command }
    }

    /// The ```console blocks of README.md, each a list of examples.
    static func blocks() -> [[Example]] {
        let url = Fixtures.repositoryRoot.appendingPathComponent("README.md")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        var blocks: [[Example]] = []
        for chunk in text.components(separatedBy: "```console\n").dropFirst() {
            guard let body = chunk.components(separatedBy: "\n```").first else { continue }
            var examples: [Example] = []
            var command: String?
            var output: [String] = []
            for line in body.components(separatedBy: "\n") {
                if line.hasPrefix("$ ") {
                    if let command { examples.append(Example(command: command, expected: output.joined(separator: "\n"))) }
                    command = String(line.dropFirst(2))
                    output = []
                } else {
                    output.append(line)
                }
            }
            if let command { examples.append(Example(command: command, expected: output.joined(separator: "\n"))) }
            blocks.append(examples)
        }
        return blocks
    }

    /// Timings and the core count replaced by "#", trailing spaces dropped
    /// (the ASCII art has them; editors remove them).
    static func normalized(_ text: String) -> String {
        var text = text
        let patterns = [
            #"("fps": |"latency_ms": )[0-9.]+"#,
            #"(, )[0-9.]+( fps)"#,
            #"([ (])[0-9.]+( images/s| ms/image)"#,
            #"(batch [0-9]+, )[0-9]+( threads?)"#,
        ]
        for pattern in patterns {
            let regex = try! NSRegularExpression(pattern: pattern)
            let range = NSRange(text.startIndex..., in: text)
            let template = regex.numberOfCaptureGroups == 2 ? "$1#$2" : "$1#"
            text = regex.stringByReplacingMatches(in: text, range: range, withTemplate: template)
        }
        return text.components(separatedBy: "\n")
            .map { String($0.reversed().drop(while: { $0 == " " }).reversed()) }
            .joined(separator: "\n")
            .trimmingCharacters(in: .newlines)
    }

    @Test("each console block runs as written and prints what the README shows", arguments: Self.blocks().enumerated().map { $0 })
    func block(index: Int, examples: [Example]) throws {
        let binFolder = (CommandRunner.digits as NSString).deletingLastPathComponent
        var script = "exec 2>&1\nexport LC_ALL=C PATH=\"\(binFolder):$PATH\"\ncd \"\(Fixtures.repositoryRoot.path)\"\n__status=0\n"
        for (position, example) in examples.enumerated() {
            script += "echo '@@@ \(position)'\n(exit $__status); \(example.command)\n__status=$?\n"
        }
        // SIGPIPE as in a user's shell (the test runner ignores it, and
        // children inherit that): `digits ... | head -3` ends quietly.
        let result = try CommandRunner.run("/usr/bin/env", ["--default-signal=PIPE", "/bin/bash", "-c", script])
        let outputs = result.stdout.components(separatedBy: "\n").reduce(into: [[String]]()) { outputs, line in
            if line.hasPrefix("@@@ ") { outputs.append([]) } else if !outputs.isEmpty { outputs[outputs.count - 1].append(line) }
        }
        #expect(outputs.count == examples.count, "block \(index)")
        for (example, output) in zip(examples, outputs) {
            let actual = Self.normalized(output.joined(separator: "\n")), expected = Self.normalized(example.expected)
            #expect(Self.same(actual, expected), "$ \(example.command)\n--- printed:\n\(actual)\n--- README:\n\(expected)")
        }
    }

    @Test("the README is read and has console examples to run (none found would pass every block vacuously)")
    func examplesFound() {
        #expect(Self.blocks().count >= 10)
    }

    @Test("an answer the prose quotes from a console block (an 8 \"at 94.9%\") is the one the block shows")
    func proseQuotesOutput() throws {
        let text = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let outputs = Self.blocks().joined().map(\.expected).joined(separator: "\n")
        let quote = try NSRegularExpression(pattern: #"an? ([0-9]) "at ([0-9.]+%)""#)
        let matches = quote.matches(in: text, range: NSRange(text.startIndex..., in: text))
        #expect(matches.count >= 2)
        for match in matches {
            let digit = String(text[Range(match.range(at: 1), in: text)!]), percent = String(text[Range(match.range(at: 2), in: text)!])
            #expect(outputs.contains(": \(digit) (\(percent)"), "the README quotes \(digit) at \(percent), which no console block shows")
        }
    }

    @Test("outputs compare exactly but for the last float32 digits of fractions")
    func comparison() {
        #expect(Self.same(#"{"confidence": 0.9453016, "p": [5.1416627e-08]}"#, #"{"confidence": 0.9453015, "p": [5.141653e-08]}"#))
        #expect(!Self.same(#"{"confidence": 0.9453016}"#, #"{"confidence": 0.9463016}"#))
        #expect(!Self.same("a.png: 3 (97.1%)", "a.png: 3 (97.2%)"))
        #expect(!Self.same("box [40, 57]", "box [40, 58]"))
        #expect(!Self.same("a.png: 3", "a.png: 3 (uncertain)"))
    }

    /// A number; those with a fraction or an exponent (a probability, a
    /// confidence) are the ones `same` compares loosely.
    static let fractional = try! NSRegularExpression(pattern: #"-?[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?"#)

    /// The same text, numbers with a fraction or exponent allowed to differ
    /// in their last float32 digits: libtorch's kernels (AVX2 or AVX-512,
    /// the BLAS in use) round the model's output differently from one
    /// machine to another, so the README's 0.9453015 may print as 0.9453016.
    /// Whole numbers (digits, boxes, counts) must match exactly.
    static func same(_ actual: String, _ expected: String) -> Bool {
        func split(_ text: String) -> (words: [String], numbers: [Double]) {
            let range = NSRange(text.startIndex..., in: text)
            var words: [String] = [], numbers: [Double] = [], last = text.startIndex
            for match in fractional.matches(in: text, range: range) {
                let matched = Range(match.range, in: text)!
                let token = String(text[matched])
                guard token.contains(".") || token.contains("e"), let value = Double(token) else { continue }
                words.append(String(text[last..<matched.lowerBound]))
                numbers.append(value)
                last = matched.upperBound
            }
            words.append(String(text[last...]))
            return (words, numbers)
        }
        let (a, b) = (split(actual), split(expected))
        guard a.words == b.words, a.numbers.count == b.numbers.count else { return false }
        return zip(a.numbers, b.numbers).allSatisfy { abs($0 - $1) <= 1e-6 + 1e-5 * max(abs($0), abs($1)) }
    }
}
