/// The frames of a video source, read on a thread of its own from the
/// moment the feed is made: made before the model loads, it keeps the
/// frames that arrive meanwhile (FrameHandOff) instead of leaving them to
/// pile up in the pipe and be dropped once the analysis starts.
public final class FrameFeed: Sendable {
    let handOff: FrameHandOff

    /// Starts reading `source`: every frame is kept for the analysis when
    /// `everyFrame` (the reader then waits for it), else only the newest
    /// (and those that arrive before the analysis is ready).
    public init(_ source: consuming VideoFrameSource, everyFrame: Bool) throws(DigitError) {
        let handOff = FrameHandOff(policy: everyFrame ? .everyFrame(capacity: 2) : .newestFrame)
        self.handOff = handOff
        let reading = source
        guard DetachedThread.start({ Self.read(reading, into: handOff) }) else {
            throw DigitError(.invalidArgument, "cannot start the thread that reads the stream")
        }
    }

    /// Stops reading: the reader ends at its next frame.
    public func stop() {
        handOff.abandon()
    }

    deinit {
        handOff.abandon()
    }

    /// The reader thread: every frame into the hand-off, then the end.
    private static func read(_ source: consuming VideoFrameSource, into handOff: FrameHandOff) {
        var source = source
        do throws(DigitError) {
            while let frame = try source.next() {
                guard handOff.put(frame) else { return }
            }
            handOff.finish(nil)
        } catch {
            handOff.finish(error)
        }
    }
}
