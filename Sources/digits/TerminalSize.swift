import Foundation

/// The size of the terminal a descriptor writes to (TIOCGWINSZ), asked
/// afresh each time so that a resized window is followed.
struct TerminalSize: Equatable {
    let rows: Int
    let columns: Int

    /// The size of `descriptor`'s terminal; nil when it is not one or does
    /// not know its size (a pseudo-terminal never given one reports 0x0).
    static func of(_ descriptor: Int32) -> TerminalSize? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0 else { return nil }
        return TerminalSize(rows: Int(size.ws_row), columns: Int(size.ws_col))
    }
}
