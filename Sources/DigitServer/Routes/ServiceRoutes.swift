import Hummingbird
import NIOConcurrencyHelpers

/// Whether the models are warmed and the server not stopping: what /readyz
/// says, for a load balancer's readiness probe.
final class Readiness: Sendable {
    private enum State { case loading, ready, draining }
    private let state = NIOLockedValueBox(State.loading)

    var isReady: Bool { state.withLockedValue { $0 == .ready } }
    var description: String { state.withLockedValue { "\($0)" } }
    func markReady() { state.withLockedValue { if $0 == .loading { $0 = .ready } } }
    func markDraining() { state.withLockedValue { $0 = .draining } }
}

/// `/healthz`, `/readyz`, `/metrics`, `/openapi.json` and the page.
enum ServiceRoutes {
    static func add<Context: RequestContext>(to router: Router<Context>, readiness: Readiness, engine: RecognitionEngine) {
        router.get("/healthz") { _, _ in JSONResponse.ok(Status(status: "ok")) }
        router.get("/readyz") { _, _ in
            readiness.isReady ? JSONResponse.ok(Status(status: "ready")) : JSONResponse.ok(Status(status: readiness.description), status: .serviceUnavailable)
        }
        router.get("/metrics") { _, _ in
            let text = engine.metrics.exposition(inProgress: engine.admission.inProgress)
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(bytes: text)))
        }
        router.get("/openapi.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: OpenAPIDocument.json)))
        }
        router.get("/") { _, _ in asset(PageAssets.indexHTML, type: "text/html; charset=utf-8") }
        router.get("/app.js") { _, _ in asset(PageAssets.appJS, type: "text/javascript; charset=utf-8") }
        router.get("/app.css") { _, _ in asset(PageAssets.appCSS, type: "text/css; charset=utf-8") }
    }

    /// The page's scripts and styles come from this server only (no inline
    /// script, nothing from elsewhere); the camera's frames go over the
    /// same origin's WebSocket.
    static let contentSecurityPolicy = "default-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; connect-src 'self'; frame-ancestors 'none'"

    private static func asset(_ text: String, type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type, .contentSecurityPolicy: contentSecurityPolicy,
                                        .xContentTypeOptions: "nosniff", .cacheControl: "no-cache"],
                 body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    private struct Status: Encodable {
        let status: String
    }
}
