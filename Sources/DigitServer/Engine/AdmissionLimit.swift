import NIOConcurrencyHelpers

/// Counts what is in progress and refuses more beyond the limits: pictures
/// (decoding, waiting for a batch, in a forward pass) and the bytes of the
/// request bodies being read and held. The bounded queue behind the 503
/// answer, so that a burst of requests cannot grow memory without end.
final class AdmissionLimit: Sendable {
    let pictureLimit: Int
    let byteLimit: Int
    private let counts = NIOLockedValueBox((pictures: 0, bytes: 0))

    init(pictures: Int, bytes: Int) {
        pictureLimit = pictures
        byteLimit = bytes
    }

    /// The pictures in progress now, for /metrics.
    var inProgress: Int { counts.withLockedValue { $0.pictures } }

    /// Runs `work` if `pictures` more pictures and `bytes` more body bytes
    /// fit under the limits (a request alone is never refused for its bytes),
    /// else throws `APIError.queueFull` at once.
    func admit<T: Sendable>(pictures: Int = 1, bytes: Int = 0, _ work: () async throws -> T) async throws -> T {
        guard tryReserve(pictures: pictures, bytes: bytes) else { throw APIError.queueFull }
        defer { release(pictures: pictures, bytes: bytes) }
        return try await work()
    }

    /// Reserves room, or returns false when it does not fit.
    func tryReserve(pictures: Int, bytes: Int) -> Bool {
        counts.withLockedValue { counts in
            guard counts.pictures + pictures <= pictureLimit,
                  counts.bytes == 0 || counts.bytes + bytes <= byteLimit else { return false }
            counts.pictures += pictures
            counts.bytes += bytes
            return true
        }
    }

    func release(pictures: Int, bytes: Int) {
        counts.withLockedValue { counts in
            counts.pictures -= pictures
            counts.bytes -= bytes
        }
    }
}
