import ArgumentParser
import DigitKit

extension Digits {
    /// `digits preprocess`: the tensor itself, for other tools to check.
    struct Preprocess: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the 784 normalized values the model would be given for a PNG image.",
            discussion: """
                Text: 28 lines of 28 values, row by row. --json: {"file": ..., "tensor": [784 \
                values]}, or {"file": ..., "tensor": null, "reason": "no digit found"}. Values \
                are float32 in their shortest exact form.

                \(ExitStatus.help)
                """
        )

        @OptionGroup var preprocessing: PreprocessingOptions

        @Flag(name: .long, help: "One JSON object instead of text.")
        var json = false

        @Argument(help: ArgumentHelp("The PNG file; - reads standard input.", valueName: "file"))
        var file: String

        func run() throws {
            let tensor = preprocessing.preprocessor.tensor(for: try InputLoading.decode(file, with: preprocessing.decoder))
            var line = JSONLine()
            line.add("file", file)
            guard let tensor else {
                if json {
                    line.addNull("tensor")
                    line.add("reason", ResultFormatting.noDigitReason)
                }
                try StandardOutput.writeAll((json ? line.text : ResultFormatting.noDigitReason) + "\n")
                return
            }
            let values = tensor.values.map { $0.description }
            if json {
                line.addRaw("tensor", "[" + values.joined(separator: ", ") + "]")
                try StandardOutput.writeAll(line.text + "\n")
            } else {
                let rows = (0..<DigitTensor.side).map { values[($0 * DigitTensor.side)..<(($0 + 1) * DigitTensor.side)].joined(separator: " ") }
                try StandardOutput.writeAll(rows.joined(separator: "\n") + "\n")
            }
        }
    }
}
