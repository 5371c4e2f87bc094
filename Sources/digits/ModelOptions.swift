import ArgumentParser
import DigitKit

/// Options shared by the commands that run the model.
struct ModelOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("TorchScript model to use (default: see `digits --help`).", valueName: "path"))
    var model: String?

    @Option(name: .long, help: "Threads libtorch may use inside one operator (default: libtorch's choice).")
    var threads: Int?

    func validate() throws {
        if let threads, threads < 1 || threads > 1024 {
            throw ValidationError("--threads must be between 1 and 1024, got \(threads)")
        }
    }

    /// Applies --threads and loads the model; reports failure on stderr and
    /// exits with status 2.
    func loadModel() throws -> DigitModel {
        do {
            if let threads { try TorchRuntime.setThreadCount(threads) }
            return try DigitModel(path: try ModelLocator.locate(explicit: model))
        } catch {
            StandardError.report(error.description)
            throw ExitStatus.usageOrModel.exitCode
        }
    }
}
