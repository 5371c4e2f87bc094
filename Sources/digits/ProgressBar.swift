import Foundation

/// A one-line progress display on stderr, drawn only when stderr is a
/// terminal, so logs and pipes stay clean: the count done (of the total,
/// when known), the rate, and the time left. Redrawn at most ten times a
/// second, so it costs nothing per input.
final class ProgressBar {
    let total: Int?
    /// What is counted ("files", "images").
    let unit: String
    let enabled: Bool = isatty(STDERR_FILENO) == 1
    /// Whether results are written to the same terminal, and so must not
    /// land in the middle of the bar.
    private let sharesTerminal: Bool = isatty(STDOUT_FILENO) == 1
    private let started = Date()
    private var lastDrawn = Date.distantPast
    private var drawn = false
    private static let width = 30

    init(total: Int?, unit: String) {
        self.total = total
        self.unit = unit
    }

    /// Records that `done` inputs are finished; redraws if it is time to.
    func update(_ done: Int) {
        guard enabled else { return }
        let now = Date()
        guard now.timeIntervalSince(lastDrawn) >= 0.1 || done == total else { return }
        lastDrawn = now
        let elapsed = now.timeIntervalSince(started)
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        var line = ""
        if let total, total > 0 {
            let filled = Self.width * min(done, total) / total
            line = "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: Self.width - filled) + "] \(done)/\(total) \(unit)"
        } else {
            line = "\(done) \(unit)"
        }
        if elapsed >= 0.5 {
            line += String(format: "  %.0f/s", rate)
            if let total, rate > 0, done < total { line += "  " + Self.duration(Double(total - done) / rate) + " left" }
        }
        StandardError.writeRaw("\r\u{1B}[K" + line)
        drawn = true
    }

    /// Takes the bar off the line before something else is written to the
    /// terminal; the next update draws it again.
    func clearForOutput() {
        guard enabled, drawn else { return }
        StandardError.writeRaw("\r\u{1B}[K")
        drawn = false
        lastDrawn = .distantPast
    }

    /// Before a result goes to standard output: clears the bar only when
    /// standard output is the same terminal.
    func clearForResult() {
        if sharesTerminal { clearForOutput() }
    }

    /// Removes the bar at the end.
    func finish() { clearForOutput() }

    /// "0:09", "12:30", "2:05:00".
    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        let (hours, minutes, secs) = (whole / 3600, whole / 60 % 60, whole % 60)
        return hours > 0 ? String(format: "%d:%02d:%02d", hours, minutes, secs) : String(format: "%d:%02d", minutes, secs)
    }
}
