import ArgumentParser

/// How a command writes its results.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    /// One human-readable line per input.
    case text
    /// One JSON object per line, keys in a documented order.
    case json
    /// RFC 4180 CSV with a header row.
    case csv
}

/// `--format text|json|csv`, with `--json` kept as the short spelling of `--format json`.
struct OutputFormatOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Output format: text, json (one object per line) or csv.", valueName: "format"))
    var format: OutputFormat?

    @Flag(name: .long, help: "The same as --format json.")
    var json = false

    func validate() throws {
        if json, let format, format != .json {
            throw ValidationError("--json and --format \(format.rawValue) contradict each other")
        }
    }

    var resolved: OutputFormat { json ? .json : format ?? .text }
}
