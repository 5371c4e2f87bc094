import Foundation

/// A one-line progress bar on stderr, drawn only when stderr is a terminal,
/// so logs and pipes stay clean.
struct ProgressBar {
    let total: Int
    let enabled: Bool = isatty(STDERR_FILENO) == 1

    func update(_ done: Int) {
        guard enabled, total > 0 else { return }
        let width = 30
        let filled = width * done / total
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        StandardError.writeRaw("\r[\(bar)] \(done)/\(total)")
    }

    func finish() {
        guard enabled else { return }
        StandardError.writeRaw("\r" + String(repeating: " ", count: 50) + "\r")
    }
}
