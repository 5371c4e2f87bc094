import NIOConcurrencyHelpers

/// Counts the pictures in progress (decoding, waiting for a batch, in a
/// forward pass) and refuses one more beyond the limit: the bounded queue
/// behind the 503 answer, so that a burst cannot grow memory without end.
final class AdmissionLimit: Sendable {
    let limit: Int
    private let count = NIOLockedValueBox(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// The pictures in progress now, for /metrics.
    var inProgress: Int { count.withLockedValue { $0 } }

    /// Runs `work` if fewer than `limit` pictures are in progress, else
    /// throws `APIError.queueFull`.
    func admit<T: Sendable>(_ pictures: Int = 1, _ work: () async throws -> T) async throws -> T {
        let admitted = count.withLockedValue { count in
            guard count + pictures <= limit else { return false }
            count += pictures
            return true
        }
        guard admitted else { throw APIError.queueFull }
        defer { count.withLockedValue { $0 -= pictures } }
        return try await work()
    }
}
