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
        case luma(GrayImage)
        case encoded([UInt8])
    }

    /// 0-based position of the frame in the stream.
    public let index: Int
    public let content: Content
    /// When the frame's last byte was read (StreamClock), where latency starts.
    public let readTime: Double
}

/// The clock of stream timings: seconds on CLOCK_MONOTONIC, which a change
/// of the wall clock cannot move.
public enum StreamClock {
    public static func now() -> Double { monotonicSeconds() }
}
