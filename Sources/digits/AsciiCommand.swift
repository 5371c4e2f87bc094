import ArgumentParser
import DigitKit

extension Digits {
    /// `digits ascii`: the preprocessed tensor as text, to see what the model sees.
    struct Ascii: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Draw the 28x28 tensor the model would see for a picture (PNG, JPEG, PNM), as ASCII art.",
            discussion: """
                One line per tensor row, two characters per pixel, with the ramp \
                " .:-=+*#%@" from background to ink. --values prints the normalized numbers \
                instead; --steps first prints what each numbered step of the pipeline \
                decided and why, one line each, then draws the stages (the picture, the sheet \
                found on a desk, the background estimate, the picture with its ink bright, \
                the digit's box). A picture with no digit prints \
                "no digit found" (exit 0).

                \(ExitStatus.pictureHelp)
                """
        )

        @OptionGroup var preprocessing: PreprocessingOptions

        @Flag(name: .long, help: "Print the 784 normalized values (28 per line) instead of art.")
        var values = false

        @Flag(name: .long, help: "Also draw the intermediate stages of the preprocessing.")
        var steps = false

        @Argument(help: ArgumentHelp("The picture (PNG, JPEG, PNM); - reads standard input.", valueName: "file"),
                  completion: .file())
        var file: String

        func validate() throws {
            if values && steps { throw ValidationError("--values and --steps cannot be combined") }
        }

        func run() throws {
            let stages = try preprocessing.preprocessor(besideDigitModel: nil).stages(for: InputLoading.decode(RawArguments.path(file), with: preprocessing.decoder))
            let renderer = AsciiRenderer()
            var text = steps ? StagesView.render(stages, renderer: renderer) : ""
            if let tensor = stages.tensor {
                if steps { text += "model input (28x28):\n" }
                text += values ? renderer.renderValues(tensor) : renderer.render(tensor)
            } else {
                text += ResultFormatting.noDigitReason + "\n"
            }
            try StandardOutput.writeAll(text)
        }
    }
}
