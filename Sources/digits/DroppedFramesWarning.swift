import DigitKit

/// The warning `digits stream` gives when most frames were dropped: what a
/// live camera with a slow analysis does too, but also what a recorded
/// video piped faster than real time gets (ffmpeg without -re), where the
/// frames dropped are digits never reported.
enum DroppedFramesWarning {
    /// The line for stderr (without "digits: "), or nil when at most half the frames were dropped.
    static func line(_ summary: StreamSummary, source: String) -> String? {
        guard summary.dropped * 2 > summary.frames else { return nil }
        return "\(source): \(summary.dropped) of \(summary.frames) frames were dropped because they came faster than "
            + "they could be analysed; for a recorded video add --every-frame (or ffmpeg -re to play it in real time)"
    }
}
