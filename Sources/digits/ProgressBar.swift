import Foundation
import Synchronization

/// A one-line progress display on stderr, drawn only when stderr is a
/// terminal, so logs and pipes stay clean: the count done (of the total,
/// when known), the rate, and the time left. Redrawn at most ten times a
/// second, so it costs nothing per input.
final class ProgressBar: @unchecked Sendable {
    /// The total given at the start, when the inputs are known beforehand.
    let knownTotal: Int?
    /// The total learned once the last input has been taken (folders, lists,
    /// standard input), from whichever thread takes it; -1 until then.
    private let foundTotal = Atomic<Int>(-1)
    /// What is counted ("files", "images").
    let unit: String
    let enabled: Bool = isatty(STDERR_FILENO) == 1
    /// Whether results are written to the same terminal, and so must not
    /// land in the middle of the bar.
    private let sharesTerminal: Bool = isatty(STDOUT_FILENO) == 1
    /// The first finished input and when it came: the rate is measured from
    /// there, so that start-up (loading libtorch and the model) does not
    /// pass for the speed of the run.
    private var first: (done: Int, at: Date)?
    private var lastDrawn = Date.distantPast
    private var drawn = false
    private static let width = 30

    init(total: Int?, unit: String) {
        self.knownTotal = total
        self.unit = unit
    }

    /// The total: known beforehand, or found once the inputs ran out.
    var total: Int? {
        if let knownTotal { return knownTotal }
        let found = foundTotal.load(ordering: .acquiring)
        return found >= 0 ? found : nil
    }

    /// Records that there are `count` inputs in all, once the last has been
    /// taken (from the thread that took it).
    func totalFound(_ count: Int) {
        foundTotal.store(count, ordering: .releasing)
    }

    /// Records that `done` inputs are finished; redraws if it is time to.
    func update(_ done: Int) {
        guard enabled else { return }
        let now = Date()
        let total = self.total
        guard now.timeIntervalSince(lastDrawn) >= 0.1 || done == total else { return }
        lastDrawn = now
        if first == nil { first = (done, now) }
        let measured = first.map { (done: done - $0.done, seconds: now.timeIntervalSince($0.at)) } ?? (0, 0)
        StandardError.writeRaw("\r\u{1B}[K" + Self.line(done: done, total: total, unit: unit, measured: measured))
        drawn = true
    }

    /// The bar's text for `done` inputs of `total`; the rate and time left
    /// from `measured`, the inputs finished in the seconds since the first,
    /// once there are half a second and a few inputs to go by.
    static func line(done: Int, total: Int?, unit: String, measured: (done: Int, seconds: Double)) -> String {
        var line = ""
        if let total, total > 0 {
            let filled = width * min(done, total) / total
            line = "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] \(done)/\(total) \(unit)"
        } else {
            line = "\(done) \(unit)"
        }
        guard measured.seconds >= 0.5, measured.done >= 3 else { return line }
        let rate = Double(measured.done) / measured.seconds
        line += String(format: "  %.0f/s", rate)
        if let total, done < total { line += "  " + duration(Double(total - done) / rate) + " left" }
        return line
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
