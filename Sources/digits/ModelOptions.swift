import ArgumentParser
import DigitKit
import Foundation

/// Options shared by the commands that run the model.
struct ModelOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("TorchScript model to use (default: see `digits --help`).", valueName: "path"))
    var model: String?

    @Option(name: .long, help: "Cores to use (default: all this process may run on): threads that decode and preprocess, and libtorch's threads.")
    var threads: Int?

    func validate() throws {
        if let threads, threads < 1 || threads > 1024 {
            throw ValidationError("--threads must be between 1 and 1024, got \(threads)")
        }
    }

    /// The cores to use: --threads, or every core in the process's affinity mask.
    var cores: Int { threads ?? min(1024, AvailableCores.count) }

    /// Threads that decode and preprocess inputs: one per core.
    var workers: Int { cores }

    /// Applies --threads and loads the model; reports failure on stderr and
    /// exits with status 2.
    func loadModel() throws -> DigitModel {
        do {
            // Forward passes free and re-allocate the same buffers; glibc would
            // give them back to the system and fault them in again every time.
            TorchRuntime.retainFreedMemory()
            // libtorch's OpenMP build may start with a single thread (it does on
            // Debian 12); all cores are up to 1.7x faster on batches (BENCHMARKS.md).
            try TorchRuntime.setThreadCount(cores)
            return try DigitModel(path: try ModelLocator.locate(explicit: model))
        } catch {
            StandardError.report(error.description)
            throw ExitStatus.usageOrModel.exitCode
        }
    }
}
