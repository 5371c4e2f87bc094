import Hummingbird
import NIOCore

/// The outermost middleware: every error becomes `{"error", "code"}` with
/// its status (a route's APIError, the router's 404, 405 on a known path,
/// Hummingbird's 413), and every answer is counted and timed for /metrics
/// under its route's name (a fixed set, so that paths sent by strangers add
/// no series).
struct APIMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics
    let maxBody: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        let response: Response
        do {
            response = try await next(request, context)
        } catch {
            response = apiError(for: error, request).response
        }
        metrics.request(route: Route.name(of: request), status: response.status.code, seconds: ContinuousClock.now - started)
        return response
    }

    private func apiError(for error: any Error, _ request: Request) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as any HTTPResponseError:
            switch error.status {
            case .notFound:
                let path = request.uri.path
                return Route.known(path) ? .methodNotAllowed(request.method, path) : .notFound(path)
            case .contentTooLarge: return .bodyTooLarge(limit: maxBody)
            case .methodNotAllowed: return .methodNotAllowed(request.method, request.uri.path)
            default:
                return APIError(status: error.status, code: error.status.code < 500 ? "bad_request" : "internal_error",
                                message: error.status.reasonPhrase)
            }
        default:
            return .internalError("\(error)")
        }
    }
}

/// The server's routes by path, for the metrics' "route" label and 405.
enum Route {
    static let paths: Set<String> = ["/", "/app.js", "/app.css", "/v1/classify", "/v1/read", "/v1/stream",
                                     "/healthz", "/readyz", "/metrics", "/openapi.json"]

    static func known(_ path: String) -> Bool { paths.contains(path) }

    static func name(of request: Request) -> String {
        known(request.uri.path) ? request.uri.path : "other"
    }
}
