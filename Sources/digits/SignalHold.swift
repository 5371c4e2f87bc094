import Foundation

/// Holding a signal off for the length of a call.
enum SignalHold {
    /// Runs `body` with SIGPIPE blocked on this thread, so that a write to a
    /// pipe whose reader is gone fails with EPIPE instead of ending the
    /// process; a SIGPIPE the body raised is taken off before the signal is
    /// let through again.
    static func withoutSIGPIPE(_ body: () -> Void) {
        var pipe = sigset_t(), previous = sigset_t(), pending = sigset_t()
        sigemptyset(&pipe)
        sigaddset(&pipe, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipe, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        sigpending(&pending)
        let alreadyPending = sigismember(&pending, SIGPIPE) == 1
        body()
        sigpending(&pending)
        if !alreadyPending && sigismember(&pending, SIGPIPE) == 1 {
            var now = timespec(tv_sec: 0, tv_nsec: 0)
            sigtimedwait(&pipe, nil, &now)
        }
    }
}
