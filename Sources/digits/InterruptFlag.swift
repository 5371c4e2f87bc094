import Dispatch
import Foundation
import Synchronization

/// Ctrl-C (SIGINT) and SIGTERM as a flag that a long run polls, so that it
/// can finish cleanly (write its last line, restore the terminal) instead of
/// being killed mid-line. The signals are ignored at the process level and
/// delivered to a dispatch source instead, so nothing runs inside a signal
/// handler.
///
/// The flag is only seen between frames, and a frame may take long to come
/// (a pipe that stays silent) or to decode: a second signal does not wait
/// for it, and ends the process at once, killed by that signal as if
/// nothing caught it (after `beforeForcedEnd`, which may restore the terminal).
final class InterruptFlag: Sendable {
    private let raised = Atomic<Bool>(false)
    /// The dispatch sources, kept for the life of the process; set once, by `install`.
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    /// Starts catching SIGINT and SIGTERM.
    static func install(beforeForcedEnd: @escaping @Sendable () -> Void = {}) -> InterruptFlag {
        let flag = InterruptFlag()
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                let (first, _) = flag.raised.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
                if !first {
                    beforeForcedEnd()
                    end(by: signalNumber)
                }
            }
            source.resume()
            sources.append(source)
        }
        return flag
    }

    var isRaised: Bool { raised.load(ordering: .acquiring) }

    /// Ends the process by `signalNumber`'s default action, so that the
    /// parent sees what killed it (a shell reports 130 for SIGINT).
    private static func end(by signalNumber: Int32) -> Never {
        signal(signalNumber, SIG_DFL)
        // Dispatch's threads block signals: unblocked here, it is delivered at once.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigaddset(&unblocked, signalNumber)
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        raise(signalNumber)
        // Not reached: the default action of SIGINT and SIGTERM ends the process.
        _exit(128 + signalNumber)
    }
}
