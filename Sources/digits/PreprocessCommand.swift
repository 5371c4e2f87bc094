import DigitsJSON
import ArgumentParser
import DigitKit

extension Digits {
    /// `digits preprocess`: the tensor itself, for other tools to check.
    struct Preprocess: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the 784 normalized values the model would be given for a picture (PNG, JPEG, PNM).",
            discussion: """
                Text: 28 lines of 28 values, row by row. --json: {"file": ..., "tensor": [784 \
                values]}, or {"file": ..., "tensor": null, "reason": "no digit found"}. Values \
                are float32 in their shortest exact form.

                \(ExitStatus.pictureHelp)
                """
        )

        @OptionGroup var preprocessing: PreprocessingOptions

        @OptionGroup var output: OutputFormatOptions<TextOrJSON>

        @Argument(help: ArgumentHelp("The picture (PNG, JPEG, PNM); - reads standard input.", valueName: "file"),
                  completion: .file())
        var file: String

        func run() throws {
            let path = RawArguments.path(file)
            let tensor = try preprocessing.preprocessor(besideDigitModel: nil).stages(for: InputLoading.decode(path, with: preprocessing.decoder)).tensor
            guard let tensor else {
                let line = output.isJSON
                    ? JSONLineEncoder().line(PreprocessLine(file: JSONFileName(path), tensor: nil, reason: ResultFormatting.noDigitReason))
                    : ResultFormatting.noDigitReason
                try StandardOutput.writeAll(line + "\n")
                return
            }
            if output.isJSON {
                try StandardOutput.writeAll(JSONLineEncoder().line(PreprocessLine(file: JSONFileName(path), tensor: tensor.values, reason: nil)) + "\n")
            } else {
                let values = tensor.values.map { $0.description }
                let rows = (0..<DigitTensor.side).map { values[($0 * DigitTensor.side)..<(($0 + 1) * DigitTensor.side)].joined(separator: " ") }
                try StandardOutput.writeAll(rows.joined(separator: "\n") + "\n")
            }
        }
    }
}
