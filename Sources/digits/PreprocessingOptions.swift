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

    @Option(name: .long, help: ArgumentHelp("The learned ink locator that tells the digit's ink from lines, shadows and frames (default: locator.pt beside the model, searched for as the model is).", valueName: "path"),
            completion: .file(extensions: ["pt"]))
    var locator: String?

    @Flag(name: .long, help: "Find the ink by the hand-written rules alone, without the ink locator.")
    var noLocator = false

    func validate() throws {
        if raw && invert != nil {
            throw ValidationError("--invert has no effect with --raw, which keeps the picture as it is")
        }
        if locator != nil && noLocator {
            throw ValidationError("--locator and --no-locator cannot be combined")
        }
        if raw && locator != nil {
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

    /// The preprocessor with the ink locator loaded (--locator, else the
    /// shipped one beside `digitModel`), unless --raw or --no-locator; when
    /// none is found, a warning and the rules alone. A locator that does not
    /// load is reported and ends the command with status 2, as a model does.
    func preprocessor(besideDigitModel digitModel: String?) throws -> Preprocessor {
        var preprocessor = rulesPreprocessor
        guard !raw, !noLocator else { return preprocessor }
        guard let path = locator ?? ShippedModel.locatorPath(besideDigitModel: digitModel) else {
            StandardError.report("no ink locator found, so the ink is found by the rules alone: "
                + "pass --locator PATH, \(ShippedModel.locatorSearched(besideDigitModel: digitModel))")
            return preprocessor
        }
        do {
            CheckoutBridgeBuild.buildIfMissing()
            preprocessor.locator = try InkLocator(path: path)
        } catch {
            StandardError.report(error.description)
            throw ExitStatus.usageOrModel.exitCode
        }
        return preprocessor
    }
}
