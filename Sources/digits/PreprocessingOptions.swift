import ArgumentParser
import DigitKit

extension Preprocessor.Inversion: ExpressibleByArgument {}

/// Whether a picture's EXIF orientation is applied.
enum OrientationHandling: String, ExpressibleByArgument, CaseIterable {
    /// Turn the picture upright as its EXIF Orientation tag says (phones store photos sideways).
    case apply
    /// Take the pixels as stored.
    case ignore
}

/// Options shared by the commands that preprocess pictures.
struct PreprocessingOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Invert the picture so the ink is bright: auto (when the ink is darker than the background), always, never.", valueName: "when"))
    var invert: Preprocessor.Inversion?

    @Flag(name: .long, help: "Only resize the whole picture to 28x28 (no polarity, cropping or centring), for comparison.")
    var raw = false

    @Option(name: .long, help: ArgumentHelp("The EXIF orientation of JPEG and PNG pictures: apply (turn them upright) or ignore.", valueName: "apply|ignore"))
    var orientation: OrientationHandling = .apply

    @OptionGroup var locatorChoice: LocatorOptions

    func validate() throws {
        if raw && invert != nil {
            throw ValidationError("--invert has no effect with --raw, which keeps the picture as it is")
        }
        if raw && locatorChoice.locator != nil {
            throw ValidationError("--locator has no effect with --raw, which finds no ink")
        }
    }

    /// The decoder the classifier uses (large JPEGs decoded at the size the
    /// analysis needs), with --orientation.
    var decoder: ImageDecoder {
        var decoder = ImageDecoder.forClassification
        decoder.applyOrientation = orientation == .apply
        return decoder
    }

    /// The preprocessor without an ink locator: the rules alone.
    var rulesPreprocessor: Preprocessor {
        Preprocessor(mode: raw ? .raw : .mnist, inversion: invert ?? .auto)
    }

    /// The preprocessor with the ink locator (LocatorOptions), unless --raw.
    func preprocessor(besideDigitModel digitModel: String?) throws -> Preprocessor {
        var preprocessor = rulesPreprocessor
        guard !raw else { return preprocessor }
        preprocessor.locator = try locatorChoice.loadLocator(besideDigitModel: digitModel)
        return preprocessor
    }
}
