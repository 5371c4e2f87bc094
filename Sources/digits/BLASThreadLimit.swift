import Foundation

/// Keeps OpenBLAS from starting a thread pool of its own when libtorch loads.
///
/// OpenBLAS (which Debian's libtorch links) sizes its pool from
/// OPENBLAS_NUM_THREADS once, in its constructor, to the cores when unset:
/// before the bridge can tell it how many threads a run uses. The idle pool
/// thread then spins in sched_yield while the models load, on the core the
/// loading needs. A run on more threads raises OpenBLAS's count through the
/// bridge (`openblas_set_num_threads` may grow the pool), so starting at one
/// costs none of them anything. A value the user set stands.
enum BLASThreadLimit {
    static let variable = "OPENBLAS_NUM_THREADS"

    /// Sets the variable to 1 unless it is set. Call first thing in `main`,
    /// while the program has one thread: setenv is not safe beside others.
    static func applyBeforeLibtorchLoads() {
        setenv(variable, "1", 0)
    }
}
