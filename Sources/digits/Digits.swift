import ArgumentParser
import DigitKit

/// The `digits` command: reads pictures of handwritten digits and says which digit each one shows.
@main
struct Digits: ParsableCommand {
    /// This release of digits; `digits --version` prints it with the libtorch it runs on.
    static let release = "0.36.0"

    static let configuration = CommandConfiguration(
        commandName: "digits",
        abstract: "Recognize handwritten digits in pictures and live video with a TorchScript model.",
        discussion: """
            The model is found in this order: --model PATH, the DIGITS_MODEL environment \
            variable, Models/digits.pt in the folder of the executable or of the current \
            directory or any folder above them, and ../share/digits/digits.pt next to the \
            executable.

            \(ExitStatus.help)
            """,
        version: versionLine,
        subcommands: [Classify.self, Read.self, Stream.self, Serve.self, Ascii.self, Preprocess.self, Eval.self],
        defaultSubcommand: nil
    )

    /// "digits 0.20.0 (libtorch 1.13.1)": the libtorch the bridge library was
    /// built against, read from that file without loading libtorch.
    static var versionLine: String {
        "digits \(release) (libtorch \(TorchRuntime.torchVersion ?? "unknown: bridge library not found"))"
    }

    /// The subcommands' names, for suggestions.
    static var subcommandNames: [String] {
        configuration.subcommands.compactMap { $0.configuration.commandName ?? String(describing: $0).lowercased() }
    }

    /// Parses and runs a subcommand, mapping ArgumentParser's usage-error
    /// status (64) to the documented 2. Help and the version go to standard
    /// output like any result: one that cannot be written exits with 1.
    static func main() {
        BLASThreadLimit.applyBeforeLibtorchLoads()
        ClosedStandardStreams.holdNumbers()
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            var message = fullMessage(for: error)
            if code == .success, let shell = HelpCompletion.requestedShell(in: CommandLine.arguments) {
                message = HelpCompletion.patched(message, shell: shell, subcommands: subcommandNames)
            }
            if code == .success {
                if !message.isEmpty {
                    do {
                        try StandardOutput.shared.line(message)
                        try StandardOutput.shared.flush()
                    } catch {
                        StandardError.report(error.description)
                        Foundation.exit(ExitStatus.inputFailed.rawValue)
                    }
                }
                Foundation.exit(0)
            }
            if !message.isEmpty { StandardError.write(message) }
            if code == .validationFailure, let typed = CommandLine.arguments.dropFirst().first,
               let meant = SubcommandSuggestion.suggestion(for: typed, among: subcommandNames) {
                StandardError.write("Did you mean '\(meant)'? (digits \(meant) --help)")
            }
            let status = code == .validationFailure ? ExitStatus.usageOrModel.rawValue : code.rawValue
            Foundation.exit(status)
        }
    }
}

import Foundation
