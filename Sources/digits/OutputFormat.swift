import ArgumentParser

/// How a command writes its results.
enum OutputFormat: String, CaseIterable {
    /// One human-readable line per input.
    case text
    /// One JSON object per line, keys in a documented order.
    case json
    /// RFC 4180 CSV with a header row.
    case csv
}

/// The formats one command can write: the values its `--format` takes.
protocol OutputFormatChoice: ExpressibleByArgument, CaseIterable, RawRepresentable<String> {
    /// What --format's help says the formats are.
    static var help: String { get }
}

/// classify's formats: a line, an object or a row per input.
enum TextJSONOrCSV: String, OutputFormatChoice {
    case text, json, csv
    static let help = "Output format: text, json (one object per line) or csv."
}

/// The formats of the commands without CSV (read, stream, eval, preprocess).
enum TextOrJSON: String, OutputFormatChoice {
    case text, json
    static let help = "Output format: text or json (one object per line)."
}

/// `--format`, with `--json` as the short spelling of `--format json`: one
/// option group for every command that writes results.
struct OutputFormatOptions<Choice: OutputFormatChoice>: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(Choice.help, valueName: "format"))
    var format: Choice?

    @Flag(name: .long, help: "The same as --format json.")
    var json = false

    func validate() throws {
        if json, let format, format.rawValue != OutputFormat.json.rawValue {
            throw ValidationError("--json and --format \(format.rawValue) contradict each other")
        }
    }

    var resolved: OutputFormat { json ? .json : format.flatMap { OutputFormat(rawValue: $0.rawValue) } ?? .text }
    /// Whether results are written as JSON.
    var isJSON: Bool { resolved == .json }
}
