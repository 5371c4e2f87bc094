import ArgumentParser
import DigitKit

extension Digits {
    /// `digits classify`: the digit in each PNG file.
    struct Classify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the digit each PNG image shows, with the model's confidence.",
            discussion: """
                Text output is one line per file, such as "seven.png: 7 (99.8%)", marked \
                "uncertain" when the confidence is below --uncertain-below, or "blank.png: no \
                digit found" for a picture without one. With --json, one JSON object per line: \
                {"file", "digit", "confidence", "uncertain", "probabilities"} (plus "top" with \
                --top); {"file", "digit": null, "reason": "no digit found"}; or {"file", "error"} \
                for a file that failed. A file that fails is reported on stderr in text mode; the \
                other files are still classified. "-" reads a PNG from standard input.

                \(ExitStatus.help)
                """
        )

        /// Files decoded before each batched forward pass.
        static let batchSize = 64

        @OptionGroup var modelOptions: ModelOptions
        @OptionGroup var preprocessing: PreprocessingOptions

        @Option(name: .long, help: ArgumentHelp("Mark predictions whose confidence is below this probability as uncertain.", valueName: "p"))
        var uncertainBelow: Double = PredictionFormatting.defaultUncertainBelow

        @Option(name: .long, help: ArgumentHelp("Also list the K most probable digits (1-10).", valueName: "K"))
        var top: Int?

        @Flag(name: .long, help: "One JSON object per line instead of text.")
        var json = false

        @Argument(help: ArgumentHelp("PNG files to classify; - reads standard input.", valueName: "file"))
        var files: [String]

        func validate() throws {
            if !(0...1).contains(uncertainBelow) {
                throw ValidationError("--uncertain-below must be a probability from 0 to 1, got \(uncertainBelow)")
            }
            if let top, !(1...10).contains(top) {
                throw ValidationError("--top must be between 1 and 10, got \(top)")
            }
            if files.isEmpty {
                throw ValidationError("give at least one PNG file (or - for standard input)")
            }
            if files.filter({ $0 == "-" }).count > 1 {
                throw ValidationError("standard input (-) can be read only once")
            }
        }

        func run() throws {
            let model = try modelOptions.loadModel()
            let classifier = DigitClassifier(model: model, preprocessor: preprocessing.preprocessor)
            let format = PredictionFormatting(json: json, top: top, uncertainBelow: uncertainBelow)
            var anyInputFailed = false
            var start = 0
            while start < files.count {
                let chunk = Array(files[start..<min(start + Self.batchSize, files.count)])
                start += chunk.count
                let tensors = chunk.map { file in Result { () throws(DigitError) in try classifier.tensor(forFileAtPath: file) } }
                // The pictures that decoded (a nil tensor is one without a digit); the
                // others are reported in order below.
                var decoded: [DigitTensor?] = []
                for case .success(let tensor) in tensors { decoded.append(tensor) }
                let predictions: [Prediction?]
                do {
                    predictions = try classifier.predict(decoded)
                } catch {
                    StandardError.report(error.about(model.path).description)
                    throw ExitStatus.usageOrModel.exitCode
                }
                var next = predictions.makeIterator()
                for (file, tensor) in zip(chunk, tensors) {
                    switch tensor {
                    case .success:
                        print(format.line(file: file, prediction: next.next()!))
                    case .failure(let error):
                        anyInputFailed = true
                        if json { print(format.errorLine(file: file, error: error)) }
                        StandardError.report(error.about(file).description)
                    }
                }
            }
            if anyInputFailed { throw ExitStatus.inputFailed.exitCode }
        }
    }
}
