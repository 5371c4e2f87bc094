import ArgumentParser
import DigitKit

extension Digits {
    /// `digits eval`: accuracy and speed of a model on MNIST-format IDX files.
    struct Eval: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Evaluate a model on MNIST-format IDX files (gzipped or raw).",
            discussion: """
                Prints accuracy, per-digit precision and recall, the confusion matrix, the most \
                confident mistakes and the speed (images per second end to end and forward only). \
                IDX images are already MNIST-shaped, so they go through the plain ToTensor + \
                Normalize path; --pipeline sends them through the full MNIST pipeline instead. \
                --json prints one object: accuracy, correct, total, no_digit, confusion, \
                per_class, images_per_second, forward_images_per_second, ms_per_image, \
                forward_ms_per_image, batch, threads, misclassified. A progress bar is drawn on \
                stderr when it is a terminal.

                \(ExitStatus.help)
                """
        )

        /// The batch size measured to be fastest here (see BENCHMARKS.md).
        static let defaultBatch = 256

        @OptionGroup var modelOptions: ModelOptions

        @Option(name: .long, help: ArgumentHelp("The IDX images file (magic 0x803).", valueName: "file"), completion: .file())
        var images: String

        @Option(name: .long, help: ArgumentHelp("The IDX labels file (magic 0x801).", valueName: "file"), completion: .file())
        var labels: String

        @Option(name: .long, parsing: .unconditional, help: "Images per forward pass.")
        var batch: Int = Eval.defaultBatch

        @Option(name: .long, parsing: .unconditional, help: "Evaluate only the first N images.")
        var limit: Int?

        @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("How many of the most confident mistakes to list.", valueName: "K"))
        var misclassified: Int = 10

        @Flag(name: .long, help: "Draw the listed mistakes in ASCII.")
        var show = false

        @Flag(name: .long, help: "Send the images through the full MNIST pipeline instead of the plain path.")
        var pipeline = false

        @OptionGroup var output: OutputFormatOptions<TextOrJSON>

        func validate() throws {
            guard (1...65536).contains(batch) else { throw ValidationError("--batch must be between 1 and 65536, got \(batch)") }
            if let limit, limit < 1 { throw ValidationError("--limit must be at least 1, got \(limit)") }
            guard misclassified >= 0 else { throw ValidationError("--misclassified must be 0 or more, got \(misclassified)") }
        }

        func run() throws {
            let dataset: MNISTDataset
            do {
                dataset = try MNISTDataset(imagesPath: images, labelsPath: labels)
            } catch {
                StandardError.report(error.description)
                throw ExitStatus.inputFailed.exitCode
            }
            let model = try modelOptions.loadModel(for: .forwardBound)
            let evaluator = Evaluator(model: model, preprocessor: Preprocessor(mode: pipeline ? .mnist : .raw),
                                      batchSize: batch, keepMistakes: misclassified, workers: modelOptions.workers(for: .forwardBound))
            let total = min(limit ?? dataset.count, dataset.count)
            let bar = ProgressBar(total: total, unit: "images")
            let report: Evaluator.Report
            do {
                report = try evaluator.evaluate(dataset, limit: limit, progress: bar.update)
            } catch {
                bar.finish()
                throw RunFailure.exitCode(for: error, model: model.path)
            }
            bar.finish()
            let evaluation = EvaluationReport(report: report, batchSize: batch, threads: TorchRuntime.threadCount)
            try StandardOutput.writeAll(output.isJSON ? evaluation.json() + "\n" : evaluation.text(show: show))
        }
    }
}
