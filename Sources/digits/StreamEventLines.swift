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
        guard json else {
            let fps = FixedDecimal(value: summary.framesPerSecond, places: 1).text
            var text = "end: \(summary.frames) frames, \(summary.analysed) analysed, \(summary.dropped) dropped, \(fps) fps"
            if summary.failed > 0 { text += ", \(summary.failed) failed to decode" }
            if summary.interrupted { text += " (interrupted)" }
            return text
        }
        return JSONLineEncoder().line(StreamEventLine.end(
            frames: summary.frames, analysed: summary.analysed, dropped: summary.dropped,
            framesPerSecond: summary.framesPerSecond, failed: summary.failed, error: summary.error?.message,
            interrupted: summary.interrupted))
    }
}
