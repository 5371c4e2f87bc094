import Dispatch
import Foundation
import Synchronization

/// Ctrl-C (SIGINT) and SIGTERM as a flag that a long run polls, so that it
/// can finish cleanly (write its last line, restore the terminal) instead of
/// being killed mid-line. The signals are ignored at the process level and
/// delivered to a dispatch source instead, so nothing runs inside a signal
/// handler.
final class InterruptFlag: Sendable {
    private let raised = Atomic<Bool>(false)
    /// The dispatch sources, kept for the life of the process; set once, by `install`.
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    /// Starts catching SIGINT and SIGTERM.
    static func install() -> InterruptFlag {
        let flag = InterruptFlag()
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { flag.raised.store(true, ordering: .releasing) }
            source.resume()
            sources.append(source)
        }
        return flag
    }

    var isRaised: Bool { raised.load(ordering: .acquiring) }
}
