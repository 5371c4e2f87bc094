import DigitKit
import DigitsJSON
import HummingbirdWebSocket

/// One WebSocket of `GET /v1/stream`: binary messages are frames, answered
/// with the `digit` / `clear` events of `digits stream` under the same
/// stability rule. A frame that arrives while another is analysed waits in
/// a slot of one; a newer frame replaces it (dropped, as `stream` drops
/// frames a live source outpaces it by), so a fast camera cannot queue work.
/// Frames faster than the rate cap, or past the server's limit of pictures
/// in progress (shared with the HTTP routes), are dropped too. Each dropped frame is
/// told ("dropped"), so a client that keeps one frame in flight never waits
/// for an answer that will not come.
struct StreamSession: Sendable {
    let engine: RecognitionEngine
    let recognizer: StreamRecognizer
    let sendFrames: Bool
    let maxFrameBytes: Int
    let minimumInterval: Double

    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        let (frames, slot) = AsyncStream.makeStream(of: VideoFrame.self, bufferingPolicy: .bufferingNewest(1))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await analyse(frames, outbound: outbound)
            }
            defer { slot.finish() }
            var index = 0
            var lastAccepted = -Double.infinity
            for try await message in inbound.messages(maxSize: maxFrameBytes) {
                guard case .binary(let buffer) = message else { continue }
                defer { index += 1 }
                let now = StreamClock.now()
                guard now - lastAccepted >= minimumInterval else {
                    engine.metrics.streamFrame("dropped")
                    try await send(.dropped(frame: index), outbound)
                    continue
                }
                lastAccepted = now
                let bytes = Array(buffer.readableBytesView)
                let content: VideoFrame.Content
                if RawGrayFrame.isRaw(bytes) {
                    do throws(DigitError) { content = .luma(try RawGrayFrame.image(bytes)) } catch {
                        engine.metrics.streamFrame("failed")
                        try await send(.frameError(frame: index, message: error.message), outbound)
                        continue
                    }
                } else {
                    content = .encoded(bytes)
                }
                if case .dropped(let older) = slot.yield(VideoFrame(index: index, content: content, readTime: now)) {
                    engine.metrics.streamFrame("dropped")
                    try await send(.dropped(frame: older.index), outbound)
                }
            }
            // The client closed: what is left unanalysed has no one to answer.
            slot.finish()
            group.cancelAll()
        }
    }

    private func analyse(_ frames: AsyncStream<VideoFrame>, outbound: WebSocketOutboundWriter) async throws {
        var tracker = StabilityTracker(stableFrames: recognizer.options.stableFrames)
        for await frame in frames {
            guard engine.admission.tryReserve(pictures: 1, bytes: 0) else {
                engine.metrics.streamFrame("dropped")
                try await send(.dropped(frame: frame.index), outbound)
                continue
            }
            let analysis: FrameAnalysis
            do {
                defer { engine.admission.release(pictures: 1, bytes: 0) }
                analysis = try await engine.analyse(frame, with: recognizer)
            } catch {
                engine.metrics.streamFrame("failed")
                try await send(.frameError(frame: frame.index, message: error.message), outbound)
                continue
            }
            engine.metrics.streamFrame("analysed")
            if sendFrames {
                let digit = analysis.prediction.flatMap { $0.isNotADigit ? nil : $0.digit }
                try await send(.frame(frame: frame.index, digit: digit, confidence: digit == nil ? nil : analysis.prediction?.confidence,
                                      preprocessed: analysis.tensor.map(PreprocessedPicture.init)), outbound)
            }
            switch tracker.observe(analysis.reading, frame: frame.index) {
            case .digit(let digit, let confidence, let at)?:
                let latency = (StreamClock.now() - frame.readTime) * 1000
                try await send(.digit(frame: at, digit: digit, confidence: confidence, latencyMilliseconds: latency), outbound)
            case .clear(let at)?:
                try await send(.clear(frame: at), outbound)
            case nil:
                break
            }
        }
    }

    private func send(_ event: StreamEventLine, _ outbound: WebSocketOutboundWriter) async throws {
        try await outbound.write(.text(JSONLineEncoder().line(event)))
    }
}
