import DigitKit
import Foundation

/// The lines `digits stream` writes for its events: JSON objects with
/// `--json` (a documented contract, keys in this order), plain text
/// otherwise.
///
///     {"event": "digit", "frame": 41, "digit": 7, "confidence": 0.99812, "latency_ms": 3.12}
///     {"event": "clear", "frame": 77}
///     {"event": "end", "frames": 300, "analysed": 300, "dropped": 0, "fps": 412.5}
///
/// The end line adds "failed" when frames failed to decode and "error" when
/// the stream broke off, and "interrupted": true after Ctrl-C.
struct StreamEventLines {
    let json: Bool

    func line(for event: StreamEvent, latencyMilliseconds: Double) -> String {
        switch event {
        case .digit(let digit, let confidence, let frame):
            guard json else { return "frame \(frame): \(digit) (\(ResultFormatting.percent(confidence)))" }
            var line = JSONLine()
            line.add("event", "digit")
            line.add("frame", frame)
            line.add("digit", digit)
            line.add("confidence", confidence)
            line.addRaw("latency_ms", Self.fixed(latencyMilliseconds, places: 2))
            return line.text
        case .clear(let frame):
            guard json else { return "frame \(frame): clear" }
            var line = JSONLine()
            line.add("event", "clear")
            line.add("frame", frame)
            return line.text
        }
    }

    func endLine(_ summary: StreamSummary) -> String {
        let fps = Self.fixed(summary.framesPerSecond, places: 1)
        guard json else {
            var text = "end: \(summary.frames) frames, \(summary.analysed) analysed, \(summary.dropped) dropped, \(fps) fps"
            if summary.failed > 0 { text += ", \(summary.failed) failed to decode" }
            if summary.interrupted { text += " (interrupted)" }
            return text
        }
        var line = JSONLine()
        line.add("event", "end")
        line.add("frames", summary.frames)
        line.add("analysed", summary.analysed)
        line.add("dropped", summary.dropped)
        line.addRaw("fps", fps)
        if summary.failed > 0 { line.add("failed", summary.failed) }
        if let error = summary.error { line.add("error", error.message) }
        if summary.interrupted { line.add("interrupted", true) }
        return line.text
    }

    /// A JSON number with at most `places` decimals ("3.1", "412.5", "0").
    static func fixed(_ value: Double, places: Int) -> String {
        guard value.isFinite else { return "null" }
        var text = String(format: "%.\(places)f", value)
        while text.contains("."), text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
