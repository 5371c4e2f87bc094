#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// One frame of a video stream as it was read, before any analysis.
public struct VideoFrame: Sendable {
    /// The pixels as they arrived: a y4m frame's Y plane, already grey, or
    /// an encoded picture (PNG, JPEG, binary PNM) still to decode, which is
    /// left to the analysis so that a frame dropped costs no decoding.
    public enum Content: Sendable {
        /// The Y plane of a YUV4MPEG2 frame: 0-255 grey levels, ready to analyse.
        case luma(GrayImage)
        /// The bytes of one PNG, JPEG or binary PNM picture, not yet decoded.
        case encoded([UInt8])
    }

    /// 0-based position of the frame in the stream.
    public let index: Int
    /// The frame's pixels, grey already or still encoded.
    public let content: Content
    /// When the frame's last byte was read (StreamClock), where latency starts.
    public let readTime: Double

    /// A frame from a source of one's own (a WebSocket message, say).
    public init(index: Int, content: Content, readTime: Double = StreamClock.now()) {
        self.index = index
        self.content = content
        self.readTime = readTime
    }
}

/// The clock of stream timings: seconds on CLOCK_MONOTONIC, which a change
/// of the wall clock cannot move.
public enum StreamClock {
    /// Seconds on CLOCK_MONOTONIC (clock_gettime) since an arbitrary start: only
    /// differences between two readings mean anything.
    public static func now() -> Double { monotonicSeconds() }
}
