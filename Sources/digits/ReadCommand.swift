import DigitsJSON
import ArgumentParser
import DigitKit

extension Digits {
    /// `digits read`: whole numbers ("2026", "3.14", "-12") in pictures.
    struct Read: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read whole numbers (2026, 3.14, -12) in pictures, handwritten or printed.",
            discussion: """
                One line per file: "meter.png: 2026 (97.1%)", the probability of the whole \
                reading, marked uncertain below --uncertain-below, when another way of \
                cutting the ink into digits came close, or when digits may touch and were \
                cut apart (often misread); "blank.png: no digit found". Ink too wide for one \
                digit is read whole by the line model (--line-model). --steps says how the ink was found and draws each character's box. Digits, \
                a decimal point and a leading minus sign on one line are read; thousands \
                separators, several lines and letters are not. --length N says the number \
                has exactly N digits. With --json, one object per file: {"file", "text", "confidence", \
                "uncertain", "digits": [{"digit", "confidence", "box": [x, y, w, h]}]}, or \
                {"file", "text": null, "reason"}, or {"file", "error"}. \
                Results keep the order of the inputs; pictures are read on every core.

                Inputs as for classify: files; folders with --recursive; a list of paths with \
                --files-from; "-" for images on standard input, one after another (named "-[0]", \
                "-[1]", ... in text, "index" in JSON); --shard I/N.

                \(ExitStatus.help)
                """
        )

        @OptionGroup var modelOptions: ModelOptions
        @OptionGroup var preprocessing: PreprocessingOptions
        @OptionGroup var input: InputOptions

        @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("The number has exactly N digits (a meter, a year, a code).", valueName: "N"))
        var length: Int?

        @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Mark readings whose probability is below this as uncertain.", valueName: "p"))
        var uncertainBelow: Double = ResultFormatting.defaultUncertainBelow

        @Option(name: .long, help: ArgumentHelp(
            "Line model that reads runs of touching digits (default: digit-line.pt beside the shipped model, or $DIGITS_LINE_MODEL; without one, such runs are cut into digits).",
            valueName: "path"), completion: .file(extensions: ["pt"]))
        var lineModel: String?

        @OptionGroup var output: OutputFormatOptions<TextOrJSON>

        @Flag(name: .long, help: "Also say what each step that found the ink decided (which part decided it: rules, locator or none), and draw that ink with the box of every character read.")
        var steps = false

        /// Reads every glyph as one digit (the plain connected-component
        /// split), for Tests/Tools/read_accuracy.py --plain-split.
        @Flag(name: .long, help: .hidden)
        var noCuts = false

        /// Cuts ink too wide for one digit into pieces for the digit model
        /// instead of reading it with the line model (0.6.0's reader), for
        /// Tests/Tools/read_accuracy.py --no-line-model.
        @Flag(name: .long, help: .hidden)
        var noLineModel = false

        func validate() throws {
            if preprocessing.raw { throw ValidationError("--raw cannot be used with read: the whole-picture resize finds no digits to read") }
            if steps && output.isJSON { throw ValidationError("--steps cannot be used with JSON output (--json or --format json)") }
            if lineModel != nil && (noLineModel || noCuts) {
                throw ValidationError("--line-model cannot be used with \(noCuts ? "--no-cuts" : "--no-line-model")")
            }
            if let length, !(1...64).contains(length) { throw ValidationError("--length must be between 1 and 64, got \(length)") }
            if !(0...1).contains(uncertainBelow) {
                throw ValidationError("--uncertain-below must be a probability from 0 to 1, got \(uncertainBelow)")
            }
        }

        func run() throws {
            let model = try modelOptions.loadModel(for: .preprocessingBound)
            let runs = try loadLineModel(besideDigitModel: model.path)
            var reader = NumberReader(model: model, lineModel: runs, decoder: preprocessing.decoder,
                                      preprocessor: try preprocessing.preprocessor(besideDigitModel: model.path))
            reader.cutsTouchingDigits = !noCuts
            let lines = ReadingLines(json: output.isJSON, uncertainBelow: uncertainBelow)
            let out = StandardOutput.shared
            let bar = ProgressBar(total: input.knownCount, unit: "files")
            var anyInputFailed = false
            let skipped = SkippedFiles()
            do {
                // With one worker (--threads 1) the digit model reads the pieces of a
                // batch of pictures at once on this thread, as classify's batches
                // (BENCHMARKS.md, "read"); with several, each worker reads its own
                // pictures whole, and a batch would only hold results back. --steps
                // keeps each decoded picture with its reading, to draw it in order,
                // so it hands them over one at a time and holds few.
                let workers = modelOptions.workers(for: .preprocessingBound)
                let options = BatchOptions(batchSize: steps || workers > 1 ? 1 : BatchOptions().batchSize, workers: workers)
                try reader.read(input.inputs(skipped: skipped, counted: bar.totalFound), length: length, options: options, keepingImages: steps,
                                afterEachBatch: { try out.flush() }) { result in
                    bar.clearForResult()
                    switch result.outcome {
                    case .failed(let error):
                        anyInputFailed = true
                        if output.isJSON { try out.line(lines.errorLine(for: result.origin, error)) }
                        bar.clearForOutput()
                        StandardError.report(error.description)
                    case .read(let reading):
                        if let image = result.image {
                            let drawing = ReadingStepsView.render(
                                steps: reader.inkSteps(for: image), reading: reading, pictureWidth: image.width, renderer: AsciiRenderer())
                            try out.line(String(drawing.dropLast()))
                        }
                        try out.line(lines.line(for: result.origin, reading: reading))
                    }
                    bar.update(result.position + 1)
                }
                try out.flush()
            } catch {
                bar.finish()
                throw RunFailure.exitCode(for: error, model: model.path)
            }
            bar.finish()
            skipped.report()
            if anyInputFailed { throw ExitStatus.inputFailed.exitCode }
        }

        /// --line-model, else the line model beside the digit model or the
        /// shipped one (none with --no-cuts or --no-line-model); says once on
        /// stderr when there is none, as touching digits are then read worse.
        /// Reports a file that fails to load on stderr and exits with status 2,
        /// as for --model.
        func loadLineModel(besideDigitModel digitModel: String) throws -> LineModel? {
            guard !noCuts, !noLineModel else { return nil }
            guard let path = lineModel ?? ShippedModel.linePath(besideDigitModel: digitModel) else {
                StandardError.report("no line model found, so touching digits are cut apart instead of read whole: "
                    + "pass --line-model PATH, \(ShippedModel.lineSearched(besideDigitModel: digitModel))")
                return nil
            }
            do {
                return try LineModel(path: path)
            } catch {
                StandardError.report(error.description)
                throw ExitStatus.usageOrModel.exitCode
            }
        }
    }
}
