import ArgumentParser
import DigitKit

extension Digits {
    /// `digits classify`: the digit in each picture.
    struct Classify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the digit each image shows, with the model's confidence.",
            discussion: """
                Text output is one line per input, such as "seven.png: 7 (99.8%)", marked \
                "uncertain" when the confidence is below --uncertain-below, or "blank.png: no \
                digit found" for a picture without one. --format json (or --json) writes one JSON \
                object per line: {"file", "digit", "confidence", "uncertain", "probabilities"} (plus \
                "top" with --top); {"file", "digit": null, "reason": "no digit found"}; {"file", \
                "digit": null, "reason": "not a digit", "not_a_digit"} (plus "top" with --top: the \
                digits ranked beneath it) for a letter, a symbol or a scribble; or {"file", "error"} \
                for an input that failed. --format csv writes a header and one row per \
                input: file,index,status,digit,confidence,uncertain,message. Results keep the order \
                of the inputs. An input that fails is reported on stderr; the others are still \
                classified. A name that is not UTF-8 or holds control characters is shown in \
                bash's $'...' quoting (JSON: "file_base64" holds a non-UTF-8 name's bytes).

                Inputs: regular files; folders with --recursive (every picture inside, by content or \
                extension, sorted; other files counted on stderr); \
                a list of paths with --files-from; "-" for images on standard input, one after \
                another (named "-[0]", "-[1]", ... in text, "index" in JSON and CSV). --shard I/N \
                keeps every N-th input from the I-th, so that N processes share the work.

                \(ExitStatus.help)
                """
        )

        @OptionGroup var modelOptions: ModelOptions
        @OptionGroup var preprocessing: PreprocessingOptions
        @OptionGroup var output: OutputFormatOptions<TextJSONOrCSV>
        @OptionGroup var input: InputOptions

        @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Mark predictions whose confidence is below this probability as uncertain.", valueName: "p"))
        var uncertainBelow: Double = ResultFormatting.defaultUncertainBelow

        @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Also list the K most probable digits (1-10), after \"not a digit\" too.", valueName: "K"))
        var top: Int?

        @Option(name: .long, parsing: .unconditional, help: "Inputs per forward pass.")
        var batch: Int = BatchOptions().batchSize

        /// Inputs the workers may prepare ahead of the model: about as many
        /// as they make while libtorch and the model load (BENCHMARKS.md).
        static let inFlightWhileLoading = 1024

        func validate() throws {
            if !(0...1).contains(uncertainBelow) {
                throw ValidationError("--uncertain-below must be a probability from 0 to 1, got \(uncertainBelow)")
            }
            if let top, !(1...10).contains(top) {
                throw ValidationError("--top must be between 1 and 10, got \(top)")
            }
            if top != nil && output.resolved == .csv {
                throw ValidationError("--top cannot be used with --format csv, whose columns are fixed; use --format json or text")
            }
            guard (1...4096).contains(batch) else { throw ValidationError("--batch must be between 1 and 4096, got \(batch)") }
        }

        func run() throws {
            let formatting = ResultFormatting(format: output.resolved, top: top, uncertainBelow: uncertainBelow)
            let out = StandardOutput.shared
            let bar = ProgressBar(total: input.knownCount, unit: "files")
            var anyInputFailed = false
            let skipped = SkippedFiles()
            var model: DigitModel?
            // Before any thread allocates (loadModel sets it too, for the
            // other commands): see TorchRuntime.retainFreedMemory.
            TorchRuntime.retainFreedMemory()
            // The workers decode and preprocess the first inputs while the
            // model (and libtorch, half a second) loads on this thread; the
            // ring holds what they make meanwhile (3 KB a tensor).
            let preprocessor = try preprocessing.preprocessor(besideDigitModel: modelOptions.model)
            var options = BatchOptions(batchSize: batch, workers: modelOptions.workers(for: .preprocessingBound))
            options.maxInFlight = max(options.maxInFlight, Self.inFlightWhileLoading)
            do {
                try DigitClassifier.classify(input.inputs(skipped: skipped, counted: bar.totalFound), loadingModel: {
                    let loaded = try modelOptions.loadModel(for: .preprocessingBound)
                    model = loaded
                    if let header = formatting.header { try out.line(header) }
                    return loaded
                }, decoder: preprocessing.decoder, preprocessor: preprocessor, options: options,
                   afterEachBatch: { try out.flush() }) { result in
                    bar.clearForResult()
                    if let line = formatting.line(for: result) { try out.line(line) }
                    if let error = result.error {
                        anyInputFailed = true
                        bar.clearForOutput()
                        StandardError.report(error.description)
                    }
                    bar.update(result.position + 1)
                }
                try out.flush()
            } catch {
                bar.finish()
                throw RunFailure.exitCode(for: error, model: model?.path)
            }
            bar.finish()
            skipped.report()
            if anyInputFailed { throw ExitStatus.inputFailed.exitCode }
        }
    }
}
