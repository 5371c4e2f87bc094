/// The `stream --json` objects, keys in this order (docs/stream.md):
///
///     {"event": "digit", "frame": 41, "digit": 7, "confidence": 0.99812, "latency_ms": 3.12}
///     {"event": "clear", "frame": 77}
///     {"event": "end", "frames": 300, "analysed": 300, "dropped": 0, "fps": 412.5}
///
/// The end object adds "failed" when frames failed to decode, "error" when
/// the stream broke off, and "interrupted": true after Ctrl-C.
///
/// The server's WebSocket (`GET /v1/stream`) sends "digit" and "clear", and
/// also, when asked, one "frame" object per frame analysed, and an "error"
/// object for a frame it cannot decode:
///
///     {"event": "frame", "frame": 12, "digit": 7, "confidence": 0.9, "preprocessed": {...}}
///     {"event": "error", "frame": 5, "error": "..."}
///     {"event": "dropped", "frame": 6}
///
/// ("dropped": a newer frame came before this one was analysed, or frames
/// came faster than the server takes them.)
package enum StreamEventLine: Encodable {
    case digit(frame: Int, digit: Int, confidence: Double, latencyMilliseconds: Double)
    case clear(frame: Int)
    case end(frames: Int, analysed: Int, dropped: Int, framesPerSecond: Double, failed: Int, error: String?, interrupted: Bool)
    /// One frame analysed: its digit (nil: none), confidence and 28x28.
    case frame(frame: Int, digit: Int?, confidence: Double?, preprocessed: PreprocessedPicture?)
    /// One frame that could not be analysed.
    case frameError(frame: Int, message: String)
    /// One frame left unanalysed.
    case dropped(frame: Int)

    private enum CodingKeys: String, CodingKey {
        case event, frame, digit, confidence, latencyMilliseconds = "latency_ms"
        case frames, analysed, dropped, fps, failed, error, interrupted, preprocessed
    }

    package func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .digit(let frame, let digit, let confidence, let latency):
            try object.encode("digit", forKey: .event)
            try object.encode(frame, forKey: .frame)
            try object.encode(digit, forKey: .digit)
            try object.encode(confidence, forKey: .confidence)
            try object.encode(FixedDecimal(value: latency, places: 2), forKey: .latencyMilliseconds)
        case .clear(let frame):
            try object.encode("clear", forKey: .event)
            try object.encode(frame, forKey: .frame)
        case .end(let frames, let analysed, let dropped, let fps, let failed, let error, let interrupted):
            try object.encode("end", forKey: .event)
            try object.encode(frames, forKey: .frames)
            try object.encode(analysed, forKey: .analysed)
            try object.encode(dropped, forKey: .dropped)
            try object.encode(FixedDecimal(value: fps, places: 1), forKey: .fps)
            if failed > 0 { try object.encode(failed, forKey: .failed) }
            try object.encodeIfPresent(error, forKey: .error)
            if interrupted { try object.encode(true, forKey: .interrupted) }
        case .frame(let frame, let digit, let confidence, let preprocessed):
            try object.encode("frame", forKey: .event)
            try object.encode(frame, forKey: .frame)
            try object.encodeOrNull(digit, forKey: .digit)
            try object.encodeOrNull(confidence, forKey: .confidence)
            try object.encodeOrNull(preprocessed, forKey: .preprocessed)
        case .dropped(let frame):
            try object.encode("dropped", forKey: .event)
            try object.encode(frame, forKey: .frame)
        case .frameError(let frame, let message):
            try object.encode("error", forKey: .event)
            try object.encode(frame, forKey: .frame)
            try object.encode(message, forKey: .error)
        }
    }
}
