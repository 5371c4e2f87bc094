import ArgumentParser
import DigitKit

extension Digits {
    /// `digits ascii`: the preprocessed tensor as text, to see what the model sees.
    struct Ascii: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Draw the 28x28 tensor the model would see for a PNG image, as ASCII art.",
            discussion: """
                One line per tensor row, two characters per pixel, with the ramp \
                " .:-=+*#%@" from background to ink. --values prints the normalized numbers instead.

                \(ExitStatus.help)
                """
        )

        @Flag(name: .long, help: "Print the 784 normalized values (28 per line) instead of art.")
        var values = false

        @Argument(help: ArgumentHelp("The PNG file; - reads standard input.", valueName: "file"))
        var file: String

        func run() throws {
            let tensor: DigitTensor
            do {
                tensor = Preprocessor().tensor(for: try PNGDecoder().decode(fileAtPath: file))
            } catch {
                StandardError.report(error.description)
                throw ExitStatus.inputFailed.exitCode
            }
            let renderer = AsciiRenderer()
            print(values ? renderer.renderValues(tensor) : renderer.render(tensor), terminator: "")
        }
    }
}
