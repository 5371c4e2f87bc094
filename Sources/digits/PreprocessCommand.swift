import DigitsJSON
import ArgumentParser
import DigitKit

extension Digits {
    /// `digits preprocess`: the tensor itself, for other tools to check, and
    /// for many pictures in one process (libtorch and the locator load once).
    struct Preprocess: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the 784 normalized values the model would be given for pictures (PNG, JPEG, PNM).",
            discussion: """
                Text: 28 lines of 28 values, row by row; with several files each picture's \
                lines follow a line "==> FILE <==". --json: one line per picture, \
                {"file": ..., "tensor": [784 values]}, or {"file": ..., "tensor": null, \
                "reason": "no digit found"}. Values are float32 in their shortest exact form.

                \(ExitStatus.pictureHelp) With several files, one that cannot be read is \
                named on stderr and the others are still printed (exit 1).
                """
        )

        @OptionGroup var preprocessing: PreprocessingOptions

        @OptionGroup var output: OutputFormatOptions<TextOrJSON>

        @Argument(help: ArgumentHelp("The pictures (PNG, JPEG, PNM); - reads one from standard input.", valueName: "file"),
                  completion: .file())
        var files: [String]

        func validate() throws {
            try InputOptions.readStandardInputOnce(files)
        }

        func run() throws {
            let preprocessor = try preprocessing.preprocessor(besideDigitModel: nil)
            var someFailed = false
            for path in RawArguments.paths(files) {
                // A picture that cannot be read is named on stderr by decode; the rest still run.
                let image: GrayImage
                do {
                    image = try InputLoading.decode(path, with: preprocessing.decoder)
                } catch let exit as ExitCode where exit == ExitStatus.inputFailed.exitCode {
                    someFailed = true
                    continue
                }
                try StandardOutput.writeAll(lines(for: preprocessor.stages(for: image).tensor, of: path))
            }
            if someFailed { throw ExitStatus.inputFailed.exitCode }
        }

        /// One picture's output, ending in a newline.
        private func lines(for tensor: DigitTensor?, of path: InputPath) -> String {
            if output.isJSON {
                let line = PreprocessLine(file: JSONFileName(path), tensor: tensor?.values,
                                          reason: tensor == nil ? ResultFormatting.noDigitReason : nil)
                return JSONLineEncoder().line(line) + "\n"
            }
            let header = files.count > 1 ? "==> \(path) <==\n" : ""
            guard let tensor else { return header + ResultFormatting.noDigitReason + "\n" }
            let values = tensor.values.map { $0.description }
            let rows = (0..<DigitTensor.side).map { values[($0 * DigitTensor.side)..<(($0 + 1) * DigitTensor.side)].joined(separator: " ") }
            return header + rows.joined(separator: "\n") + "\n"
        }
    }
}
