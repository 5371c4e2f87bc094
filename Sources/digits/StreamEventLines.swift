import DigitsJSON
import DigitKit
import Foundation

/// The lines `digits stream` writes for its events: the JSON objects of
/// StreamEventLine with `--json`, plain text otherwise.
struct StreamEventLines {
    let json: Bool

    func line(for event: StreamEvent, latencyMilliseconds: Double) -> String {
        switch event {
        case .digit(let digit, let confidence, let frame):
            guard json else { return "frame \(frame): \(digit) (\(ResultFormatting.percent(confidence)))" }
            return JSONLineEncoder().line(
                StreamEventLine.digit(frame: frame, digit: digit, confidence: confidence, latencyMilliseconds: latencyMilliseconds))
        case .clear(let frame):
            guard json else { return "frame \(frame): clear" }
            return JSONLineEncoder().line(StreamEventLine.clear(frame: frame))
        }
    }

    func endLine(_ summary: StreamSummary) -> String {
        endLine(frames: summary.frames, analysed: summary.analysed, dropped: summary.dropped,
                framesPerSecond: summary.framesPerSecond, failed: summary.failed, error: summary.error,
                interrupted: summary.interrupted)
    }

    /// The end line of a run that stopped before its first frame: the
    /// model failed, or the file could not be opened.
    func endLine(failedBeforeAnyFrame error: DigitError, interrupted: Bool) -> String {
        endLine(frames: 0, analysed: 0, dropped: 0, framesPerSecond: 0, failed: 0, error: error, interrupted: interrupted)
    }

    private func endLine(frames: Int, analysed: Int, dropped: Int, framesPerSecond: Double, failed: Int, error: DigitError?,
                         interrupted: Bool) -> String {
        guard json else {
            let fps = FixedDecimal(value: framesPerSecond, places: 1).text
            var text = "end: \(frames) frames, \(analysed) analysed, \(dropped) dropped, \(fps) fps"
            if failed > 0 { text += ", \(failed) failed to decode" }
            if interrupted { text += " (interrupted)" }
            return text
        }
        return JSONLineEncoder().line(StreamEventLine.end(
            frames: frames, analysed: analysed, dropped: dropped, framesPerSecond: framesPerSecond, failed: failed,
            error: error?.message, interrupted: interrupted))
    }
}
