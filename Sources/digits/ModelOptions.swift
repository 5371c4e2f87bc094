import ArgumentParser
import DigitKit
import Foundation

/// Options shared by the commands that run the model.
struct ModelOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("TorchScript model to use (default: see `digits --help`).", valueName: "path"),
            completion: .file(extensions: ["pt"]))
    var model: String?

    // Numeric options take the next word whatever it starts with, so that
    // `--threads -1` is refused for its value, not as "Missing value".
    @Option(name: .long, parsing: .unconditional, help: "Cores to use, shared between decoding and libtorch (default: all this process may run on; stream: one).")
    var threads: Int?

    func validate() throws {
        if let threads, threads < 1 || threads > 1024 {
            throw ValidationError("--threads must be between 1 and 1024, got \(threads)")
        }
    }

    /// The cores to use: --threads, or every core in the process's affinity mask.
    var cores: Int { threads ?? min(1024, AvailableCores.count) }


    /// How a command shares the cores between preprocessing and libtorch.
    enum ThreadSplit {
        /// Pictures to decode and preprocess (classify): one worker per core,
        /// libtorch on one thread. Measured on 1,000 mixed PNGs on 2 cores
        /// (Benchmarks/thread-split, BENCHMARKS.md): 824 files/s against 585
        /// with libtorch on both cores, whose OpenMP threads spin between
        /// forward passes on the cores the workers need.
        case preprocessingBound
        /// Images that need next to no preprocessing (eval on IDX files):
        /// libtorch on every core, as the forward passes are the work.
        case forwardBound
    }

    /// libtorch's thread count for `split`.
    func torchThreads(for split: ThreadSplit) -> Int {
        split == .preprocessingBound ? 1 : cores
    }

    /// Threads that decode and preprocess inputs for `split`; one suffices
    /// where an image is only copied into its tensor.
    func workers(for split: ThreadSplit) -> Int {
        split == .preprocessingBound ? cores : 1
    }

    /// Applies --threads and loads the model; reports failure on stderr and
    /// exits with status 2.
    func loadModel(for split: ThreadSplit) throws -> DigitModel {
        do {
            return try loadedModel(for: split)
        } catch {
            StandardError.report(error.description)
            throw ExitStatus.usageOrModel.exitCode
        }
    }

    /// Applies --threads and loads the model, for a command that reports
    /// the failure itself.
    func loadedModel(for split: ThreadSplit) throws(DigitError) -> DigitModel {
        CheckoutBridgeBuild.buildIfMissing()
        // Forward passes free and re-allocate the same buffers; glibc would
        // give them back to the system and fault them in again every time.
        // (classify has set it already, before its workers started.)
        TorchRuntime.retainFreedMemory()
        // Set in every case: libtorch's OpenMP build may start with a single
        // thread (it does on Debian 12), and its own default ignores taskset.
        try TorchRuntime.setThreadCount(torchThreads(for: split))
        let path = try ModelLocator.locate(explicit: model)
        do {
            return try DigitModel(path: path)
        } catch where model == nil && error.subject == path && ModelLocator.fromEnvironment == path {
            // Name where the path came from: nothing on the command line says it.
            throw error.about("\(path) (from \(ShippedModel.environmentVariable))")
        }
    }
}
