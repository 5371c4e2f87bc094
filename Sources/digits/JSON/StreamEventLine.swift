/// The `stream --json` objects, keys in this order (README, "stream"):
///
///     {"event": "digit", "frame": 41, "digit": 7, "confidence": 0.99812, "latency_ms": 3.12}
///     {"event": "clear", "frame": 77}
///     {"event": "end", "frames": 300, "analysed": 300, "dropped": 0, "fps": 412.5}
///
/// The end object adds "failed" when frames failed to decode, "error" when
/// the stream broke off, and "interrupted": true after Ctrl-C.
enum StreamEventLine: Encodable {
    case digit(frame: Int, digit: Int, confidence: Double, latencyMilliseconds: Double)
    case clear(frame: Int)
    case end(frames: Int, analysed: Int, dropped: Int, framesPerSecond: Double, failed: Int, error: String?, interrupted: Bool)

    private enum CodingKeys: String, CodingKey {
        case event, frame, digit, confidence, latencyMilliseconds = "latency_ms"
        case frames, analysed, dropped, fps, failed, error, interrupted
    }

    func encode(to encoder: any Encoder) throws {
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
        }
    }
}
