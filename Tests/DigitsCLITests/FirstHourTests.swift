@testable import digits
import Foundation
import Testing
import TestSupport

/// What a new user trips on in the first hour: completions that complete
/// files, a mistyped subcommand, the source of a model path, options that
/// cannot apply.
@Suite("First hour")
struct FirstHourTests {
    /// What bash's completion of `line` offers, run in `folder` with the
    /// completion script `digits` generates, as bash calls it on TAB.
    static func bashCompletions(_ line: String, in folder: String) throws -> [String] {
        let script = try CommandRunner.digits(["--generate-completion-script", "bash"]).stdout
        let path = "\(folder)/digits.bash"
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        let driver = #"""
            shopt -s extglob; source "$1"; line="$2"
            read -ra COMP_WORDS <<< "$line"; [[ "$line" == *" " ]] && COMP_WORDS+=("")
            COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE="$line"; COMP_POINT=${#COMP_LINE}
            _digits digits "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
            printf '%s\n' "${COMPREPLY[@]}"
            """#
        let result = try CommandRunner.run("/bin/bash", ["-c", driver, "bash", path, line], in: folder)
        return result.stdoutLines.sorted()
    }

    @Test("bash completes file names for pictures, --model, --files-from and eval's files")
    func bashCompletesFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("completion-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: "\(folder)/scans", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in ["seven.png", "second.jpg", "model.pt", "list.txt"] {
            try Data().write(to: URL(fileURLWithPath: "\(folder)/\(name)"))
        }
        #expect(try Self.bashCompletions("digits classify se", in: folder) == ["second.jpg", "seven.png"])
        #expect(try Self.bashCompletions("digits read --model ", in: folder) == ["model.pt", "scans"])
        #expect(try Self.bashCompletions("digits classify --files-from li", in: folder) == ["list.txt"])
        #expect(try Self.bashCompletions("digits ascii sev", in: folder) == ["seven.png"])
        #expect(try Self.bashCompletions("digits eval --images sc", in: folder) == ["scans"])
        #expect(try Self.bashCompletions("digits cl", in: folder) == ["classify"])
        #expect(try Self.bashCompletions("digits help ", in: folder) == ["ascii", "classify", "eval", "preprocess", "read", "serve", "stream"])
        #expect(try Self.bashCompletions("digits help re", in: folder) == ["read"])
        #expect(try Self.bashCompletions("digits serve --token-file li", in: folder) == ["list.txt"])
    }

    @Test("zsh and fish offer the subcommands after help too")
    func helpCompletionOtherShells() throws {
        let zsh = try CommandRunner.digits(["--generate-completion-script", "zsh"]).stdout
        #expect(zsh.contains("'*:subcommands:(classify read stream serve ascii preprocess eval)'"))
        let fish = try CommandRunner.digits(["--generate-completion-script=fish"]).stdout
        #expect(fish.contains("-n '__fish_seen_subcommand_from help' -fa 'classify read stream serve ascii preprocess eval'"))
    }

    @Test("a mistyped subcommand gets a suggestion, exit 2", arguments: [("clasify", "classify"), ("raed", "read"), ("asci", "ascii")])
    func didYouMean(typed: String, meant: String) throws {
        let result = try CommandRunner.digits([typed, "x.png"])
        #expect(result.status == 2)
        #expect(result.stderrLines.last == "Did you mean '\(meant)'? (digits \(meant) --help)")
    }

    @Test("suggestions: the nearest name within two edits, or the only one a prefix begins; none when unsure")
    func suggestions() {
        let names = ["classify", "read", "stream", "ascii", "preprocess", "eval", "help"]
        #expect(SubcommandSuggestion.suggestion(for: "clasify", among: names) == "classify")
        #expect(SubcommandSuggestion.suggestion(for: "pre", among: names) == "preprocess")
        #expect(SubcommandSuggestion.suggestion(for: "x.png", among: names) == nil)
        #expect(SubcommandSuggestion.suggestion(for: "read", among: names) == nil)
        #expect(SubcommandSuggestion.suggestion(for: "--json", among: names) == nil)
        #expect(SubcommandSuggestion.distance(Array("raed"), Array("read")) == 1)
    }

    @Test("a model path from DIGITS_MODEL is named as coming from there")
    func modelFromEnvironment() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["DIGITS_MODEL"] = "missing/x.pt"
        let picture = Fixtures.repositoryRoot.appendingPathComponent("Examples/seven.png").path
        let result = try CommandRunner.digits(["classify", picture], environment: environment)
        #expect(result.status == 2)
        #expect(result.stderrLines == ["digits: missing/x.pt (from DIGITS_MODEL): model file not found"])
    }

    @Test("the ink locator beside the model in use is the one used, not the shipped one",
          arguments: [(["classify"], false), (["read"], false), (["ascii"], false), (["preprocess"], false),
                      (["classify"], true), (["read"], true)])
    func locatorBesideModelInUse(_ command: [String], modelOption: Bool) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("beside-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: Fixtures.shippedModel, toPath: "\(folder)/digits.pt")
        try Data("not a locator".utf8).write(to: URL(fileURLWithPath: "\(folder)/locator.pt"))
        // The model in use comes from DIGITS_MODEL, or from --model, which wins over it.
        var environment = ProcessInfo.processInfo.environment
        environment["DIGITS_MODEL"] = modelOption ? Fixtures.shippedModel : "\(folder)/digits.pt"
        environment["DIGITS_LOCATOR"] = nil
        let picture = Fixtures.repositoryRoot.appendingPathComponent("Examples/seven.png").path
        let options = modelOption ? ["--model", "\(folder)/digits.pt"] : []
        let result = try CommandRunner.digits(command + options + [picture], environment: environment)
        #expect(result.status == 2)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("\(folder)/locator.pt"))
    }

    @Test("--top with CSV, whose columns cannot hold it, is a usage error instead of ignored")
    func topWithCSV() throws {
        let picture = Fixtures.repositoryRoot.appendingPathComponent("Examples/seven.png").path
        let result = try CommandRunner.digits(["classify", "--top", "3", "--format", "csv", picture])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("--top cannot be used with --format csv"))
    }

    @Test("ascii and preprocess refuse several pictures on standard input instead of drawing the first",
          arguments: [["ascii", "-"], ["preprocess", "-"], ["preprocess", "--json", "-"]])
    func onePictureOnStandardInput(_ arguments: [String]) throws {
        let examples = Fixtures.repositoryRoot.appendingPathComponent("Examples")
        let seven = try Data(contentsOf: examples.appendingPathComponent("seven.png"))
        let two = try Data(contentsOf: examples.appendingPathComponent("two.png"))
        let both = try CommandRunner.digits(arguments, stdin: seven + two)
        #expect(both.status == 1)
        #expect(both.stdout.isEmpty)
        #expect(both.stderrLines == ["digits: -: holds more than one image (the second starts at byte \(seven.count)); one is read here"])
        // One picture, also with bytes after its end that are no picture, and a plain PNM, still read.
        #expect(try CommandRunner.digits(arguments, stdin: seven + Data("trailing notes".utf8)).status == 0)
        #expect(try CommandRunner.digits(arguments, stdin: Data("P2\n2 2\n255\n0 0 0 0\n".utf8)).status == 0)
    }
}
