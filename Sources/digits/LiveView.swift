import DigitKit
import Foundation

/// The screen of `digits stream` on a terminal: redrawn in place, like
/// `top`, it shows the region of interest as the 28x28 picture the model
/// sees (the ASCII view of `digits ascii`, live), the current reading, the
/// last stable digit, and how many frames per second are analysed and
/// dropped. Redrawn at most 20 times a second, and at every event.
final class LiveView {
    private let source: String
    private let renderer = AsciiRenderer()
    private let output = StandardOutput.shared
    private var lastDraw = -Double.infinity
    private var stable = "none yet"
    private var lastAnalysis: FrameAnalysis?
    private var lastProgress: StreamProgress?
    /// (time, frames analysed) over the last second, for the rate.
    private var samples: [(time: Double, analysed: Int, dropped: Int)] = []

    static let escape = "\u{1B}["

    init(source: String) {
        self.source = source
    }

    /// Clears the screen and hides the cursor.
    func start() throws {
        try output.text("\(Self.escape)?25l\(Self.escape)2J\(Self.escape)H")
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
        case .clear(let frame):
            stable = "none  (cleared at frame \(frame))"
        }
        try draw(at: StreamClock.now())
    }

    /// Draws the last state, shows the cursor again and leaves it below the screen.
    func finish(_ endLine: String) throws {
        try draw(at: StreamClock.now())
        try output.text("\(Self.escape)?25h")
        try output.line(endLine)
        try output.flush()
    }

    private func draw(at now: Double) throws {
        lastDraw = now
        let region = lastAnalysis?.region.map { "region \($0.x),\($0.y) \($0.width)x\($0.height), " } ?? ""
        var lines = ["digits stream: \(source)", "\(region)frame \(lastAnalysis?.frameIndex ?? 0)   (Ctrl-C to stop)", ""]
        if let tensor = lastAnalysis?.tensor {
            lines += renderer.render(tensor).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        } else {
            lines += Array(repeating: "", count: 13) + [String(repeating: " ", count: 16) + "(no digit in the region)"]
                + Array(repeating: "", count: 14)
        }
        lines.append("")
        lines.append("now:     " + reading)
        lines.append("stable:  " + stable)
        lines.append("speed:   " + speed)
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
