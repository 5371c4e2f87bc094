/// Passes frames from the thread that reads the stream to the thread that
/// analyses them, in one of two ways:
///
/// - `.everyFrame` (a regular file, which can wait): up to `capacity`
///   frames wait; the reader waits when they are all taken, so every frame
///   is analysed and memory stays bounded.
/// - `.newestFrame` (a pipe, a camera: they cannot wait): one slot; a frame
///   that arrives while the previous one is still unanalysed replaces it,
///   and is counted as dropped. The reader never waits, so the writer's
///   pipe never backs up and the analysis always gets the latest picture.
final class FrameHandOff: @unchecked Sendable {
    enum Policy: Sendable {
        case everyFrame(capacity: Int)
        case newestFrame
    }

    private let lock = ConditionLock()
    private let policy: Policy
    private var waiting: [VideoFrame] = []
    private var finished = false
    /// Set when the analysis has stopped taking frames.
    private var abandoned = false
    /// Frames handed over so far.
    private var read = 0
    private var failure: DigitError?
    /// Frames replaced before they could be analysed.
    private(set) var dropped = 0

    init(policy: Policy) {
        self.policy = policy
    }

    /// Hands over `frame` (reader side); false once the analysis has
    /// stopped, when the reader should stop too.
    func put(_ frame: VideoFrame) -> Bool {
        lock.withLock {
            guard !abandoned else { return false }
            read += 1
            switch policy {
            case .everyFrame(let capacity):
                while waiting.count >= capacity, !abandoned { lock.wait() }
                waiting.append(frame)
            case .newestFrame:
                dropped += waiting.count
                waiting = [frame]
            }
            lock.broadcast()
            return true
        }
    }

    /// The analysis takes no more frames: a reader waiting for room goes on
    /// and stops at its next frame (analysis side).
    func abandon() {
        lock.withLock {
            abandoned = true
            waiting = []
            lock.broadcast()
        }
    }

    /// No frame will follow; `error` if the stream broke (reader side).
    func finish(_ error: DigitError?) {
        lock.withLock {
            finished = true
            failure = error
            lock.broadcast()
        }
    }

    /// What the analysis gets next.
    enum Next {
        case frame(VideoFrame)
        /// The stream ended, cleanly (nil) or with an error.
        case end(DigitError?)
        /// `shouldStop` said so while waiting.
        case stopped
    }

    /// The next frame, the end, or a stop. Waits for the reader, checking
    /// `shouldStop` every 50 ms (analysis side).
    func take(shouldStop: () -> Bool) -> Next {
        lock.withLock {
            while true {
                if shouldStop() { return .stopped }
                if !waiting.isEmpty {
                    let frame = waiting.removeFirst()
                    lock.broadcast()
                    return .frame(frame)
                }
                if finished { return .end(failure) }
                lock.wait(seconds: 0.05)
            }
        }
    }

    /// Frames dropped so far (analysis side).
    var droppedCount: Int { lock.withLock { dropped } }

    /// Frames read so far (analysis side).
    var framesRead: Int { lock.withLock { read } }
}
