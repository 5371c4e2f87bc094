import Foundation
import Testing
import TestSupport

/// Every console example of the README, of the pages under docs/ and of the
/// DocC articles runs from the checkout as written and prints what the page
/// shows, so that no page can drift from the program. Timings (frames and
/// images per second, latencies) and the machine's core count are the only
/// parts compared loosely.
@Suite("README and docs console examples")
struct ReadmeTests {
    /// One `$ command` of a console block and the output shown under it.
    struct Example: CustomStringConvertible {
        let command: String
        let expected: String
        var description: String { command }
    }

    /// One ```console block: the page it is in (relative to the repository
    /// root), its position there, from 0, and its examples.
    struct Block: CustomStringConvertible {
        let file: String
        let index: Int
        let examples: [Example]
        var description: String { "\(file), block \(index)" }
    }

    /// The folders whose .md pages are searched for console blocks, besides
    /// README.md.
    static let folders = ["docs", "Sources/DigitKit/DigitKit.docc"]

    /// The fewest console blocks each page that has them must hold. A page
    /// missing, unreadable or found with fewer fails `examplesFound`, so no
    /// page's examples can stop running unnoticed (a parameterized test over
    /// no blocks would pass). A page that gains blocks gets its line here.
    static let minimumBlocks: [String: Int] = [
        "README.md": 11,
        "docs/commands.md": 11,
        "docs/read.md": 5,
        "docs/stream.md": 3,
        "docs/serve.md": 1,
    ]

    /// README.md, then every .md page of `folders`, sorted; a folder that
    /// cannot be listed gives none (`examplesFound` fails on it).
    static func pages() -> [String] {
        var pages = ["README.md"]
        for folder in folders {
            let path = Fixtures.repositoryRoot.appendingPathComponent(folder).path
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            pages += names.filter { $0.hasSuffix(".md") }.sorted().map { "\(folder)/\($0)" }
        }
        return pages
    }

    static func text(of page: String) throws -> String {
        try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent(page), encoding: .utf8)
    }

    /// The ```console blocks of every page; a page that cannot be read gives
    /// none here and fails `examplesFound`.
    static func blocks() -> [Block] {
        pages().flatMap { page in
            guard let text = try? text(of: page) else { return [Block]() }
            return blocks(in: text).enumerated().map { Block(file: page, index: $0.offset, examples: $0.element) }
        }
    }

    /// The ```console blocks of one page, each a list of examples.
    static func blocks(in text: String) -> [[Example]] {
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

    @Test("each console block runs as written and prints what its page shows", arguments: Self.blocks())
    func block(_ block: Block) throws {
        let examples = block.examples
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
        #expect(outputs.count == examples.count, "\(block)")
        for (example, output) in zip(examples, outputs) {
            let actual = Self.normalized(output.joined(separator: "\n")), expected = Self.normalized(example.expected)
            #expect(Self.same(actual, expected), "\(block.file): $ \(example.command)\n--- printed:\n\(actual)\n--- \(block.file):\n\(expected)")
        }
    }

    @Test("every page is read and has its console examples to run (none found would pass every block vacuously)")
    func examplesFound() throws {
        for folder in Self.folders {
            let names = try FileManager.default.contentsOfDirectory(atPath: Fixtures.repositoryRoot.appendingPathComponent(folder).path)
            #expect(names.contains { $0.hasSuffix(".md") }, "no .md page in \(folder)")
        }
        for (page, minimum) in Self.minimumBlocks.sorted(by: { $0.key < $1.key }) {
            let found = Self.blocks(in: try Self.text(of: page)).count
            #expect(found >= minimum, "\(page): \(found) console blocks, at least \(minimum) expected")
        }
        for page in Self.pages() {
            let found = Self.blocks(in: try Self.text(of: page)).count
            #expect(found == 0 || Self.minimumBlocks[page] != nil, "\(page) has \(found) console blocks but no line in minimumBlocks")
        }
        #expect(Self.blocks().count >= Self.minimumBlocks.values.reduce(0, +))
    }

    @Test("an answer the prose quotes from a console block (an 8 \"at 94.9%\") is the one the block shows")
    func proseQuotesOutput() throws {
        let text = try Self.pages().map { try Self.text(of: $0) }.joined(separator: "\n")
        let outputs = Self.blocks().flatMap(\.examples).map(\.expected).joined(separator: "\n")
        let quote = try NSRegularExpression(pattern: #"an? ([0-9]) "at ([0-9.]+%)""#)
        let matches = quote.matches(in: text, range: NSRange(text.startIndex..., in: text))
        #expect(matches.count >= 2)
        for match in matches {
            let digit = String(text[Range(match.range(at: 1), in: text)!]), percent = String(text[Range(match.range(at: 2), in: text)!])
            #expect(outputs.contains(": \(digit) (\(percent)"), "the README or a docs page quotes \(digit) at \(percent), which no console block shows")
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
    /// machine to another, so a page's 0.9453015 may print as 0.9453016.
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
