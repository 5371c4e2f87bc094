import DigitKit
import Hummingbird
import HummingbirdWebSocket

/// `GET /v1/stream`: a WebSocket of frames in and `digit` / `clear` events
/// out (StreamSession). Its options are checked before the upgrade: a bad one
/// (or a missing token) refuses it, which a WebSocket upgrade answers with a
/// 400 and no body; a GET that asks for no upgrade gets 426 and why.
struct StreamRoute: Sendable {
    let engine: RecognitionEngine
    let configuration: ServerConfiguration

    func add(to router: Router<BasicWebSocketRequestContext>) {
        router.ws("/v1/stream") { request, _ in
            guard request.headers[.upgrade]?.lowercased() == "websocket" else { throw APIError.upgradeRequired }
            _ = try Self.session(for: request, engine: engine, configuration: configuration)
            return .upgrade([:])
        } onUpgrade: { [engine, configuration] inbound, outbound, context in
            let session = try Self.session(for: context.request, engine: engine, configuration: configuration)
            try await session.run(inbound: inbound, outbound: outbound)
        }
    }

    private static func session(for request: Request, engine: RecognitionEngine, configuration: ServerConfiguration) throws(APIError) -> StreamSession {
        let query = QueryOptions(request)
        var options = StreamOptions()
        if let frames = try query.integer("stable_frames", in: 1...100) { options.stableFrames = frames }
        if let threshold = try query.probability("uncertain_below") { options.uncertainBelow = threshold }
        var recognizer = StreamRecognizer(model: engine.model, options: options)
        recognizer.preprocessor = engine.preprocessor
        return StreamSession(engine: engine, recognizer: recognizer, sendFrames: try query.flag("frames"),
                             maxFrameBytes: configuration.maxFrameBytes,
                             minimumInterval: 1 / Double(configuration.maxFramesPerSecond))
    }
}
