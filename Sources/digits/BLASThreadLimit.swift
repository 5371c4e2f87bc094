import Foundation

/// Keeps OpenBLAS from starting a thread pool of its own when libtorch loads.
///
/// OpenBLAS's pthreads build (Debian's default) sizes its pool once, in its
/// constructor, from OPENBLAS_NUM_THREADS, GOTO_NUM_THREADS or
/// OMP_NUM_THREADS, and to the cores when none is set: before the bridge can
/// tell it how many threads a run uses. The idle pool thread then spun in
/// sched_yield while the models loaded, on the core the loading needs. A
/// command that runs libtorch on more threads raises OpenBLAS's count through
/// the bridge (`openblas_set_num_threads` grows the pool). A count the user
/// set in any of the three stands.
enum BLASThreadLimit {
    static let variable = "OPENBLAS_NUM_THREADS"
    /// What OpenBLAS reads, in its order.
    static let variables = [variable, "GOTO_NUM_THREADS", "OMP_NUM_THREADS"]

    /// Sets OPENBLAS_NUM_THREADS to 1 unless one of `variables` is set. Call
    /// first thing in `main`, while the program has one thread: setenv is
    /// not safe beside others.
    static func applyBeforeLibtorchLoads() {
        guard variables.allSatisfy({ getenv($0) == nil }) else { return }
        setenv(variable, "1", 0)
    }
}
