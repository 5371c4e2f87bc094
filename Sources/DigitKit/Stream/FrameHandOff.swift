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
///   The frames that arrive before the analysis is ready (the model loading
///   and warming up) are kept, though, up to `startUpFrames` and
///   `startUpBytes`: they are the start of the video, not a backlog of a
///   busy analysis, and a digit shown from the start is reported at the
///   frame it appears. Beyond the bound the newest replaces the last kept.
final class FrameHandOff: @unchecked Sendable {
    enum Policy: Sendable {
        case everyFrame(capacity: Int)
        case newestFrame
    }

    /// At most this many frames are kept while the analysis gets ready:
    /// about two seconds of video.
    static let startUpFrames = 64
    /// At most this many bytes of frames are kept while the analysis gets ready.
    static let startUpBytes = 64 << 20

    private let lock = ConditionLock()
    private let policy: Policy
    private var waiting: [VideoFrame] = []
    /// How many frames at the front of `waiting` arrived before the
    /// analysis was ready, and their bytes: kept until analysed.
    private var kept = 0
    private var keptBytes = 0
    /// Set when the analysis first asks for a frame.
    private var ready = false
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
            case .newestFrame where !ready:
                let fits = kept < Self.startUpFrames && keptBytes + frame.byteCount <= Self.startUpBytes
                if !fits, let last = waiting.popLast() {
                    dropped += 1
                    kept -= 1
                    keptBytes -= last.byteCount
                }
                waiting.append(frame)
                kept += 1
                keptBytes += frame.byteCount
            case .newestFrame:
                if waiting.count > kept {
                    waiting.removeLast()
                    dropped += 1
                }
                waiting.append(frame)
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
            kept = 0
            keptBytes = 0
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
    /// `shouldStop` every 50 ms (analysis side). The first call marks the
    /// analysis ready: from then on, only the newest frame waits.
    func take(shouldStop: () -> Bool) -> Next {
        lock.withLock {
            ready = true
            while true {
                if shouldStop() { return .stopped }
                if !waiting.isEmpty {
                    let frame = waiting.removeFirst()
                    if kept > 0 {
                        kept -= 1
                        keptBytes -= frame.byteCount
                    }
                    lock.broadcast()
                    return .frame(frame)
                }
                // Abandoned: a feed run a second time ends at once instead of waiting for ever.
                if finished || abandoned { return .end(failure) }
                lock.wait(seconds: 0.05)
            }
        }
    }

    /// Frames dropped so far (analysis side).
    var droppedCount: Int { lock.withLock { dropped } }

    /// Frames read so far (analysis side).
    var framesRead: Int { lock.withLock { read } }
}

extension VideoFrame {
    /// The bytes the frame holds while it waits.
    var byteCount: Int {
        switch content {
        case .luma(let image): image.width * image.height
        case .encoded(let bytes): bytes.count
        }
    }
}
