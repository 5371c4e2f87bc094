import Foundation
import Testing

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
            let actual = Self.normalized(output.joined(separator: "\n"))
            #expect(actual == Self.normalized(example.expected), "$ \(example.command)")
        }
    }
}
