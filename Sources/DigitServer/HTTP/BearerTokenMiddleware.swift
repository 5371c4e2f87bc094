import Hummingbird

/// Asks for `Authorization: Bearer TOKEN` on the API (`/v1/...` and
/// `/metrics`); the page, the health checks and the OpenAPI document stay
/// open so that a browser and a load balancer need no secret. The token is
/// compared in constant time, so the answer's timing does not tell how much
/// of a guess was right.
struct BearerTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let token: [UInt8]

    init(token: String) {
        self.token = Array(token.utf8)
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // As the router matches: empty path pieces ("//v1", "/metrics/") do not count.
        let pieces = request.uri.path.split(separator: "/")
        guard pieces.first == "v1" || pieces == ["metrics"] else { return try await next(request, context) }
        let header = request.headers[.authorization] ?? ""
        let scheme = "bearer "
        guard header.lowercased().hasPrefix(scheme),
              Self.constantTimeEqual(Array(header.utf8.dropFirst(scheme.utf8.count)), token) else {
            throw APIError.unauthorized
        }
        return try await next(request, context)
    }

    /// Whether `a` equals `b`, looking at every byte of `a` whatever it holds.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in a.indices {
            difference |= a[index] ^ (b.isEmpty ? 0 : b[index % b.count])
        }
        return difference == 0
    }
}

/// The token comparison alone, for the tests.
@_spi(Fuzzing) public enum BearerTokenMiddlewareCheck {
    public static func equal(_ given: String, _ expected: String) -> Bool {
        BearerTokenMiddleware<BasicRequestContext>.constantTimeEqual(Array(given.utf8), Array(expected.utf8))
    }
}
