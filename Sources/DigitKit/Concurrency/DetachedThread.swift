#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// Starts plain detached POSIX threads (pthread_create) for the workers of a
/// batch run. Dispatch's shared pool is meant for work that does not block;
/// a worker may block for as long as its input source does (a pipe).
enum DetachedThread {
    /// Runs `body` on a new detached thread with a 4 MiB stack (the
    /// preprocessing keeps its large buffers on the heap). Returns false if
    /// the system refuses to create one.
    static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        pthread_attr_setstacksize(&attributes, 4 << 20)
        var thread = pthread_t()
        let status = pthread_create(&thread, &attributes, { context in
            Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, context)
        if status != 0 {
            Unmanaged<ThreadBody>.fromOpaque(context).release()
            return false
        }
        return true
    }
}

/// The closure a new thread runs, boxed to pass through pthread_create's `void *`.
private final class ThreadBody {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}
