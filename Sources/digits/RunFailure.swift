import ArgumentParser
import DigitKit

/// How a command ends when an error stops its whole run (not one input's):
/// one line on standard error and the documented exit status, the same for
/// every command.
enum RunFailure {
    /// Reports `error` and returns the exit code to throw. An `ExitCode` was
    /// reported where it was thrown; an error without a subject that came
    /// from running the model (a forward pass, memory) names the model.
    static func exitCode(for error: any Error, model: String?) -> ExitCode {
        switch error {
        case let exit as ExitCode:
            return exit
        case let failure as StandardOutput.WriteFailure:
            StandardError.report(failure.description)
            return ExitStatus.inputFailed.exitCode
        case let failure as DigitError:
            let named = failure.subject == nil ? model.map(failure.about) ?? failure : failure
            StandardError.report(named.description)
            return ExitStatus.usageOrModel.exitCode
        default:
            StandardError.report("\(error)")
            return ExitStatus.usageOrModel.exitCode
        }
    }
}
