import DigitsJSON
import ArgumentParser
import DigitKit
import Foundation

extension Digits {
    /// `digits stream`: live recognition on a video from a camera, a pipe or a file.
    struct Stream: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Recognize the digit shown to a camera or in a video, live, and report it once it is stable.",
            discussion: """
                Reads video frames from FILE or standard input: a YUV4MPEG2 stream (8-bit mono, \
                4:2:0, 4:2:2 or 4:4:4; the Y plane is used), or PNG, JPEG or binary PGM pictures back \
                to back (ffmpeg -f image2pipe -c:v png|mjpeg|pgm). For a webcam:

                  ffmpeg -loglevel error -f v4l2 -i /dev/video0 -f yuv4mpegpipe -pix_fmt gray - | digits stream

                The digit is looked for in the region of interest: by default the centre square \
                whose side is half the frame's shorter side. A digit is reported once --stable \
                consecutive analysed frames read it with a confidence of at least --uncertain-below, \
                and not again while it stays; "clear" once, after a digit, as many frames have shown \
                no digit (none found, or only below the threshold). A different stable digit is \
                reported at once.

                From a regular file every frame is analysed. From a pipe or a terminal, only the \
                newest frame is analysed when the analysis is busy and the others are counted as \
                dropped, so the answer is about the latest picture and the pipe never backs up \
                (--every-frame analyses them all and makes the writer wait); the frames that \
                arrive while the model loads are kept. When more than half the frames were \
                dropped (a recorded video piped faster than real time), one line on stderr says \
                so at the end: add --every-frame, or play it in real time (ffmpeg -re). The \
                frames are analysed one at a time, with libtorch on one thread (--threads N \
                gives it N).

                On a terminal without --json a live screen shows the region as the model sees it, \
                fitted to the window; when it ends, the digits seen and the end line are left \
                on the terminal. Otherwise one line per event ("frame 41: 7 (99.8%)", "frame 77: clear"), then an end \
                line; with --json one JSON object per line: {"event": "digit", "frame", "digit", \
                "confidence", "latency_ms"}, {"event": "clear", "frame"}, {"event": "end", "frames", \
                "analysed", "dropped", "fps"} (plus "failed", "error", "interrupted" when they \
                apply). Ctrl-C ends the run with the end line and status 0 once the frame under way \
                is read and analysed; a second Ctrl-C ends it at once, without the end line.

                Exit status: 0 the stream was read to its end (or interrupted); 1 the stream broke \
                off (cut off, garbage where a frame should start) or a frame's picture failed to \
                decode (the other frames are still analysed), with a one-line error naming the \
                frame; 2 usage error (a region that does not fit the frames included), or the \
                model is missing or unusable, or libtorch cannot be loaded.
                """
        )

        @OptionGroup var modelOptions: ModelOptions

        @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Where to look: X,Y,W,H in pixels, or center:F for the centre square F times the shorter side (default center:0.5).", valueName: "region"))
        var roi: String?

        @Option(name: .customLong("stable"), parsing: .unconditional, help: ArgumentHelp("Consecutive frames that must agree before a digit or a clear is reported.", valueName: "K"))
        var stableFrames: Int = StreamOptions().stableFrames

        @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Readings below this probability are uncertain: never reported.", valueName: "p"))
        var uncertainBelow: Double = StreamOptions().uncertainBelow

        @OptionGroup var output: OutputFormatOptions<TextOrJSON>

        @Flag(name: .long, help: "Analyse every frame even from a pipe (the writer then waits for the analysis).")
        var everyFrame = false

        /// Slows the analysis of each frame by this many milliseconds, so
        /// that tests and benchmarks can see frames dropped from a pipe.
        @Option(name: .long, parsing: .unconditional, help: .hidden)
        var simulateSlowAnalysis: Double?

        @Argument(help: ArgumentHelp("The video: a file, or - for standard input (the default).", valueName: "file"),
                  completion: .file())
        var input = "-"

        func validate() throws {
            if let roi {
                do { _ = try RegionOfInterest(parsing: roi) } catch { throw ValidationError(error.message) }
            }
            guard (1...1000).contains(stableFrames) else {
                throw ValidationError("--stable must be between 1 and 1000, got \(stableFrames)")
            }
            guard (0...1).contains(uncertainBelow) else {
                throw ValidationError("--uncertain-below must be a probability from 0 to 1, got \(uncertainBelow)")
            }
            if let simulateSlowAnalysis, !(0...10_000).contains(simulateSlowAnalysis) {
                throw ValidationError("--simulate-slow-analysis must be between 0 and 10000 ms")
            }
        }

        func run() throws {
            // Caught from the start, so that Ctrl-C during the model load
            // still ends with the end line; a second one ends at once,
            // with the cursor the live screen hid shown again.
            let onScreen = !output.isJSON && isatty(STDOUT_FILENO) == 1
            let interrupt = InterruptFlag.install(beforeForcedEnd: {
                if onScreen {
                    let restore = Array("\(LiveView.restore)\n".utf8)
                    _ = write(STDOUT_FILENO, restore, restore.count)
                }
            })
            let lines = StreamEventLines(json: output.isJSON)
            // Reading starts before the model loads, so that the frames that
            // arrive meanwhile are kept for the analysis, not dropped.
            let opened = Result { () throws(DigitError) in try openInput() }
            let source = opened.flatMap { descriptor, name in
                Result { () throws(DigitError) in
                    try FrameFeed(VideoFrameSource(descriptor: descriptor, name: Self.displayName(name)),
                                  everyFrame: everyFrame || StandardOutput.isRegularFile(descriptor))
                }
            }
            let model: DigitModel, feed: FrameFeed, name: String
            do {
                // One frame at a time: libtorch on one thread unless --threads says otherwise.
                model = try modelOptions.loadedModel(for: modelOptions.threads == nil ? .preprocessingBound : .forwardBound)
            } catch {
                throw Self.stopBeforeAnyFrame(error, status: .usageOrModel, lines: lines, interrupted: interrupt.isRaised)
            }
            do {
                (feed, name) = (try source.get(), try opened.get().1)
            } catch {
                throw Self.stopBeforeAnyFrame(error, status: .inputFailed, lines: lines, interrupted: interrupt.isRaised)
            }
            var options = StreamOptions(stableFrames: stableFrames, uncertainBelow: uncertainBelow)
            if let roi { options.region = try! RegionOfInterest(parsing: roi) }
            var recognizer = StreamRecognizer(model: model, options: options)
            if let path = ShippedModel.locatorPath(besideDigitModel: model.path) {
                do {
                    recognizer.preprocessor.locator = try InkLocator(path: path)
                } catch {
                    throw Self.stopBeforeAnyFrame(error, status: .usageOrModel, lines: lines, interrupted: interrupt.isRaised)
                }
            }
            let live = onScreen ? LiveView(source: name) : nil
            let out = StandardOutput.shared
            // Each event as it happens, to a file too (`tail -f`), not only to pipes.
            out.flushesEachLine = true
            let delay = simulateSlowAnalysis.map { useconds_t($0 * 1000) }
            let summary: StreamSummary
            do {
                try live?.start()
                summary = try recognizer.run(
                    feed,
                    shouldStop: { interrupt.isRaised },
                    onFrame: { analysis, progress in
                        if let error = analysis.error { StandardError.report(error.about(name).description) }
                        if let delay { usleep(delay) }
                        try live?.frame(analysis, progress)
                    },
                    onEvent: { event, readTime in
                        if let live { return try live.event(event) }
                        try out.line(lines.line(for: event, latencyMilliseconds: (StreamClock.now() - readTime) * 1000))
                    })
                if let live { try live.finish(lines.endLine(summary)) } else { try out.line(lines.endLine(summary)) }
                try out.flush()
            } catch let failure as StandardOutput.WriteFailure {
                StandardError.report(failure.description)
                throw ExitStatus.inputFailed.exitCode
            } catch let error as DigitError {
                // The model or the ink locator failing before the first frame
                // (its warm-up); the locator's error names its file already.
                throw Self.stopBeforeAnyFrame(error.subject == nil ? error.about(model.path) : error, status: ExitStatus(for: error), lines: lines,
                                              interrupted: interrupt.isRaised, live: live)
            }
            if let warning = DroppedFramesWarning.line(summary, source: Self.displayName(name)) {
                StandardError.report(warning)
            }
            if let error = summary.error {
                // A model failing mid-stream ("frame 7: forward pass failed")
                // is the model's fault, not the stream's: name the model, as
                // classify and read do (the ink locator's errors name its file already).
                let failing = [.inferenceFailed, .outOfMemory].contains(error.code) ? model.path : name
                StandardError.report((error.subject == nil ? error.about(failing) : error).description)
                throw ExitStatus(for: error).exitCode
            }
            if summary.failed > 0 { throw ExitStatus.inputFailed.exitCode }
        }

        /// The descriptor to read and the name errors give it.
        private func openInput() throws(DigitError) -> (Int32, String) {
            guard input != "-" else { return (STDIN_FILENO, "-") }
            let descriptor = open(input, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw OpenFailure.error(errno).about(input) }
            return (descriptor, input)
        }

        /// How messages name the input: "standard input" for -.
        private static func displayName(_ name: String) -> String {
            name == "-" ? "standard input" : name
        }

        /// A run that stops before its first frame (the model fails, the file
        /// cannot be opened) ends like one that stops later: the end line,
        /// with the error in it, and the error on stderr. Returns the exit status.
        private static func stopBeforeAnyFrame(_ error: DigitError, status: ExitStatus, lines: StreamEventLines, interrupted: Bool,
                                               live: LiveView? = nil) -> ExitCode {
            let end = lines.endLine(failedBeforeAnyFrame: error, interrupted: interrupted)
            do {
                if let live { try live.finish(end) } else { try StandardOutput.shared.line(end) }
                try StandardOutput.shared.flush()
            } catch let failure as StandardOutput.WriteFailure {
                StandardError.report(failure.description)
            } catch {
                StandardError.report("\(error)")
            }
            StandardError.report(error.description)
            return status.exitCode
        }
    }
}
