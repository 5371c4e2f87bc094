import ArgumentParser
import DigitKit

/// --locator and --no-locator: which learned ink locator the photo pipeline
/// uses, shared by the commands that preprocess pictures and by `serve`.
struct LocatorOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The learned ink locator that tells the digit's ink from lines, shadows and frames (default: locator.pt beside the model, searched for as the model is).", valueName: "path"),
            completion: .file(extensions: ["pt"]))
    var locator: String?

    @Flag(name: .long, help: "Find the ink by the hand-written rules alone, without the ink locator.")
    var noLocator = false

    func validate() throws {
        if locator != nil && noLocator {
            throw ValidationError("--locator and --no-locator cannot be combined")
        }
    }

    /// The ink locator: --locator, else the shipped one beside `digitModel`;
    /// nil with --no-locator, or with one line on stderr when none is found
    /// (the rules alone then). One that does not load is reported and ends
    /// the command with status 2, as a model does.
    func loadLocator(besideDigitModel digitModel: String?) throws -> InkLocator? {
        guard !noLocator else { return nil }
        guard let path = locator ?? ShippedModel.locatorPath(besideDigitModel: digitModel) else {
            StandardError.report("no ink locator found, so the ink is found by the rules alone: "
                + "pass --locator PATH, \(ShippedModel.locatorSearched(besideDigitModel: digitModel))")
            return nil
        }
        do {
            CheckoutBridgeBuild.buildIfMissing()
            return try InkLocator(path: path)
        } catch {
            StandardError.report(error.description)
            throw ExitStatus.usageOrModel.exitCode
        }
    }
}
