import DigitKit
import Foundation

/// The screen of `digits stream` on a terminal: redrawn in place, like
/// `top`, it shows the region of interest as the 28x28 picture the model
/// sees (the ASCII view of `digits ascii`, live), the current reading, the
/// last stable digit, and how many frames per second are analysed and
/// dropped. Redrawn at most 20 times a second, and at every event, fitted
/// to the terminal's size at each redraw (LiveScreenLayout). Drawn on the
/// alternate screen, like `less`: when it ends the terminal is as it was,
/// with the digits seen and the end line below.
final class LiveView {
    private let source: String
    private let output = StandardOutput.shared
    /// The digits reported, with the frame of each.
    private var seen: [(digit: Int, frame: Int)] = []
    private var lastDraw = -Double.infinity
    private var stable = "none yet"
    private var lastAnalysis: FrameAnalysis?
    private var lastProgress: StreamProgress?
    /// (time, frames analysed) over the last second, for the rate.
    private var samples: [(time: Double, analysed: Int, dropped: Int)] = []

    static let escape = "\u{1B}["
    /// Leaves the alternate screen and shows the cursor again: what a run
    /// that ends at once (a second Ctrl-C) writes too.
    static let restore = "\(escape)?1049l\(escape)?25h"

    init(source: String) {
        self.source = source
    }

    /// Switches to the alternate screen, clears it and hides the cursor.
    func start() throws {
        try output.text("\(Self.escape)?1049h\(Self.escape)?25l\(Self.escape)2J\(Self.escape)H")
        try output.flush()
    }

    func frame(_ analysis: FrameAnalysis, _ progress: StreamProgress) throws {
        let now = StreamClock.now()
        if analysis.error == nil { lastAnalysis = analysis }
        lastProgress = progress
        samples.append((now, progress.analysed, progress.dropped))
        samples.removeAll { now - $0.time > 1 }
        if now - lastDraw >= 0.05 { try draw(at: now) }
    }

    func event(_ event: StreamEvent) throws {
        switch event {
        case .digit(let digit, let confidence, let frame):
            stable = "\(digit)  (\(ResultFormatting.percent(confidence)), since frame \(frame))"
            seen.append((digit, frame))
        case .clear(let frame):
            stable = "none  (cleared at frame \(frame))"
        }
        try draw(at: StreamClock.now())
    }

    /// Restores the screen as it was and leaves the digits seen and the end line on it.
    func finish(_ endLine: String) throws {
        try output.text(Self.restore)
        try output.line(Self.seenLine(seen))
        try output.line(endLine)
        try output.flush()
    }

    /// "digits seen: 7 3 1 (frames 41, 97, 160)", the last 20 of a long run.
    static func seenLine(_ seen: [(digit: Int, frame: Int)]) -> String {
        guard !seen.isEmpty else { return "digits seen: none" }
        let shown = seen.suffix(20)
        let lead = shown.count < seen.count ? "\(seen.count), the last \(shown.count): " : ""
        return "digits seen: \(lead)\(shown.map { String($0.digit) }.joined(separator: " ")) "
            + "(frame\(shown.count > 1 ? "s" : "") \(shown.map { String($0.frame) }.joined(separator: ", ")))"
    }

    private func draw(at now: Double) throws {
        lastDraw = now
        let region = lastAnalysis?.region.map { "region \($0.x),\($0.y) \($0.width)x\($0.height), " } ?? ""
        let layout = LiveScreenLayout(
            heading: ["digits stream: \(source)", "\(region)frame \(lastAnalysis?.frameIndex ?? 0)   (Ctrl-C to stop)"],
            status: ["now:     " + reading, "stable:  " + stable, "speed:   " + speed])
        let lines = layout.lines(picture: lastAnalysis?.tensor, in: TerminalSize.of(STDOUT_FILENO))
        let screen = "\(Self.escape)H" + lines.map { $0 + "\(Self.escape)K\n" }.joined() + "\(Self.escape)J"
        try output.text(screen)
        try output.flush()
    }

    private var reading: String {
        switch lastAnalysis?.reading {
        case .confident(let digit, let confidence)?: return "\(digit)  (\(ResultFormatting.percent(confidence)))"
        case .uncertain(let digit, let confidence)?: return "\(digit)  (\(ResultFormatting.percent(confidence)), uncertain)"
        case .noDigit?: return "no digit"
        case nil: return "waiting for a frame"
        }
    }

    private var speed: String {
        guard let progress = lastProgress else { return "" }
        var rate = 0.0, dropRate = 0.0
        if let first = samples.first, let last = samples.last, last.time > first.time {
            rate = Double(last.analysed - first.analysed) / (last.time - first.time)
            dropRate = Double(last.dropped - first.dropped) / (last.time - first.time)
        }
        return String(format: "%.1f fps analysed, %.1f fps dropped   (%d read, %d analysed, %d dropped)",
                      rate, dropRate, progress.frames, progress.analysed, progress.dropped)
    }
}
