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
                Text: 28 lines of 28 values, row by row; unless one FILE (or -) is given \
                alone, each picture's lines follow a line "==> FILE <==". - reads one \
                picture from standard input. --json: one line per picture, \
                {"file": ..., "tensor": [784 values]}, or {"file": ..., "tensor": null, \
                "reason": "no digit found"}. Values are float32 in their shortest exact form.

                \(ExitStatus.pictureHelp) With several pictures, one that cannot be read \
                is named on stderr and the others are still printed (exit 1). --shard splits \
                the pictures among processes run side by side.
                """
        )

        @OptionGroup var preprocessing: PreprocessingOptions

        @OptionGroup var output: OutputFormatOptions<TextOrJSON>

        @OptionGroup var input: InputOptions

        func run() throws {
            let preprocessor = try preprocessing.preprocessor(besideDigitModel: nil)
            let skipped = SkippedFiles()
            let headers = !input.namesOnePicture
            var someFailed = false
            for picture in input.inputs(skipped: skipped, standardInputHoldsOne: true) {
                // A picture that cannot be read is named on stderr; the rest still run.
                let image: GrayImage
                do {
                    image = try picture.decoded(with: preprocessing.decoder)
                } catch {
                    StandardError.report(error.description)
                    someFailed = true
                    continue
                }
                let tensor = try preprocessor.stages(for: image).tensor
                try StandardOutput.writeAll(lines(for: tensor, of: picture.origin.path, header: headers))
            }
            skipped.report()
            if someFailed { throw ExitStatus.inputFailed.exitCode }
        }

        /// One picture's output, ending in a newline.
        private func lines(for tensor: DigitTensor?, of path: InputPath, header: Bool) -> String {
            if output.isJSON {
                let line = PreprocessLine(file: JSONFileName(path), tensor: tensor?.values,
                                          reason: tensor == nil ? ResultFormatting.noDigitReason : nil)
                return JSONLineEncoder().line(line) + "\n"
            }
            let header = header ? "==> \(path) <==\n" : ""
            guard let tensor else { return header + ResultFormatting.noDigitReason + "\n" }
            let values = tensor.values.map { $0.description }
            let rows = (0..<DigitTensor.side).map { values[($0 * DigitTensor.side)..<(($0 + 1) * DigitTensor.side)].joined(separator: " ") }
            return header + rows.joined(separator: "\n") + "\n"
        }
    }
}
