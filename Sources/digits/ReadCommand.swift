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
                cutting the ink into digits came close, or when digits may touch (often \
                misread); "blank.png: no digit found". --steps draws each character's box. Digits, \
                a decimal point and a leading minus sign on one line are read; thousands \
                separators, several lines and letters are not. --length N says the number \
                has exactly N digits. With --json, one object per file (README, "read").

                \(ExitStatus.help)
                """
        )

        @OptionGroup var modelOptions: ModelOptions
        @OptionGroup var preprocessing: PreprocessingOptions

        @Option(name: .long, help: ArgumentHelp("The number has exactly N digits (a meter, a year, a code).", valueName: "N"))
        var length: Int?

        @Option(name: .long, help: ArgumentHelp("Mark readings whose probability is below this as uncertain.", valueName: "p"))
        var uncertainBelow: Double = ResultFormatting.defaultUncertainBelow

        @Flag(name: .long, help: "One JSON object per file instead of text.")
        var json = false

        @Flag(name: .long, help: "Also draw each picture with the box of every character read.")
        var steps = false

        /// Reads every glyph as one digit (the plain connected-component
        /// split), for Tests/Tools/read_accuracy.py --plain-split.
        @Flag(name: .long, help: .hidden)
        var noCuts = false

        @Argument(help: ArgumentHelp("Pictures (PNG, JPEG, PNM); - reads standard input.", valueName: "file"))
        var files: [String] = []

        func validate() throws {
            if files.isEmpty { throw ValidationError("no input: give one or more files, or - for standard input") }
            if preprocessing.raw { throw ValidationError("--raw cannot be used with read: the whole-picture resize finds no digits to read") }
            if steps && json { throw ValidationError("--steps and --json cannot be combined") }
            if let length, !(1...64).contains(length) { throw ValidationError("--length must be between 1 and 64, got \(length)") }
            if !(0...1).contains(uncertainBelow) {
                throw ValidationError("--uncertain-below must be a probability from 0 to 1, got \(uncertainBelow)")
            }
        }

        func run() throws {
            let model = try modelOptions.loadModel(for: .preprocessingBound)
            var reader = NumberReader(model: model, decoder: preprocessing.decoder, preprocessor: preprocessing.preprocessor)
            reader.cutsTouchingDigits = !noCuts
            let lines = ReadingLines(json: json, uncertainBelow: uncertainBelow)
            let out = StandardOutput.shared
            var anyInputFailed = false
            do {
                for file in files {
                    let image: GrayImage, reading: NumberReading
                    do throws(DigitError) {
                        image = try reader.decoder.decode(fileAtPath: file)
                        reading = try reader.read(image, length: length)
                    } catch {
                        // A model that fails stops the run (exit 2); a file that fails only itself.
                        if ExitStatus(for: error) == .usageOrModel { throw error }
                        anyInputFailed = true
                        if json { try out.line(lines.errorLine(for: file, error)) }
                        StandardError.report(error.about(file).description)
                        continue
                    }
                    if steps {
                        let drawing = ReadingStepsView.render(
                            ink: reader.inkPicture(for: image), reading: reading, pictureWidth: image.width, renderer: AsciiRenderer())
                        try out.line(String(drawing.dropLast()))
                    }
                    try out.line(lines.line(for: file, reading: reading))
                }
                try out.flush()
            } catch let failure as StandardOutput.WriteFailure {
                StandardError.report(failure.description)
                throw ExitStatus.inputFailed.exitCode
            } catch {
                StandardError.report((error as? DigitError)?.about(model.path).description ?? "\(error)")
                throw ExitStatus.usageOrModel.exitCode
            }
            if anyInputFailed { throw ExitStatus.inputFailed.exitCode }
        }
    }
}
