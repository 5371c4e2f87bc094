import ArgumentParser
import DigitKit

/// The exit statuses of `digits`, as documented in --help and docs/commands.md.
enum ExitStatus: Int32 {
    /// Every input was read and classified (or rendered).
    case success = 0
    /// At least one input could not be read or decoded; the others were still processed.
    case inputFailed = 1
    /// A usage error, or the model is missing or unusable, or libtorch cannot be loaded.
    case usageOrModel = 2

    static let help = """
        Exit status: 0 every file was processed; 1 some input could not be read or \
        decoded (the other files are still processed); 2 usage error, or the model \
        is missing or unusable, or libtorch cannot be loaded.
        """

    /// The statuses of the commands that read one picture and run no
    /// classifier (ascii, preprocess): only the ink locator, if any.
    static let pictureHelp = """
        Exit status: 0 the picture was read (one without a digit too); 1 it could not be \
        read or decoded; 2 usage error, or the ink locator is unusable or libtorch cannot \
        be loaded (--no-locator needs neither).
        """

    var exitCode: ExitCode { ExitCode(rawValue) }

    /// The status `error` ends a run with: 2 when the caller or the model is
    /// to fix (a bad argument such as a region that does not fit, a model
    /// missing, unusable or failing, libtorch that cannot be loaded); 1 when
    /// an input is (a file or stream that cannot be read or decoded).
    init(for error: DigitError) {
        switch error.code {
        case .invalidArgument, .modelNotFound, .modelLoadFailed, .notADigitModel, .inferenceFailed, .outOfMemory,
             .runtimeUnavailable:
            self = .usageOrModel
        default:
            self = .inputFailed
        }
    }
}
