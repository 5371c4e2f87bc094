import ArgumentParser
import DigitKit

extension Preprocessor.Inversion: ExpressibleByArgument {}

/// Options shared by the commands that preprocess pictures.
struct PreprocessingOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Invert the picture so the ink is bright: auto (when the ink is darker than the background), always, never.", valueName: "when"))
    var invert: Preprocessor.Inversion?

    @Flag(name: .long, help: "Only resize the whole picture to 28x28 (no polarity, cropping or centring), for comparison.")
    var raw = false

    func validate() throws {
        if raw && invert != nil {
            throw ValidationError("--invert has no effect with --raw, which keeps the picture as it is")
        }
    }

    var preprocessor: Preprocessor {
        Preprocessor(mode: raw ? .raw : .mnist, inversion: invert ?? .auto)
    }
}
