/// The bytes that picture decodes may hold in their buffers at once, shared
/// by every thread of the process (the workers of a batch decode in
/// parallel): a decode reserves what its header says it will allocate
/// before allocating it, and gives it back when done.
///
/// A picture that needs more than `perPicture` is refused at once, with a
/// message naming both sizes. One that fits waits while the others hold
/// too much of `total`; `perPicture` is at most `total`, so a picture that
/// fits always proceeds once nothing else is held: never a deadlock.
final class DecodeMemoryBudget: @unchecked Sendable {
    /// The default for one picture and for all together: 512 MiB.
    static let defaultBytes = 512 * 1024 * 1024
    /// The budget every decoder uses unless given another.
    static let shared = DecodeMemoryBudget(perPicture: defaultBytes, total: defaultBytes)

    let perPicture: Int
    let total: Int
    private let lock = ConditionLock()
    // Guarded by lock.
    private var held = 0

    init(perPicture: Int, total: Int) {
        precondition(perPicture > 0 && perPicture <= total)
        self.perPicture = perPicture
        self.total = total
    }

    /// Runs `body` with `bytes` reserved (waiting for them if need be), and
    /// releases them after; refuses a `bytes` over `perPicture` for `picture`
    /// ("8192x8192 16-bit RGBA") without running `body`.
    func withReservation<T>(_ bytes: Int, for picture: @autoclosure () -> String,
                            _ body: () throws(DigitError) -> T) throws(DigitError) -> T {
        guard bytes <= perPicture else {
            throw DigitError(.imageTooLarge, "decoding the \(picture()) picture needs \(Self.size(bytes)), over the limit of \(Self.size(perPicture)) per picture")
        }
        lock.withLock {
            while held + bytes > total { lock.wait() }
            held += bytes
        }
        defer {
            lock.withLock {
                held -= bytes
                lock.broadcast()
            }
        }
        return try body()
    }

    /// The bytes reserved now, for the tests.
    var heldBytes: Int { lock.withLock { held } }

    /// "576 MiB", "36 KiB" or "100 bytes", rounded up, so that a size just
    /// over the limit never reads as equal to it.
    static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 20 { return "\((bytes + (1 << 20) - 1) >> 20) MiB" }
        if bytes >= 1 << 10 { return "\((bytes + (1 << 10) - 1) >> 10) KiB" }
        return "\(bytes) bytes"
    }
}
