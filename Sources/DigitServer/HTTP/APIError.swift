import DigitKit
import DigitsJSON
import Hummingbird

/// Every error the API answers, as `{"error": "...", "code": "..."}` with
/// its HTTP status (docs/serve.md). The message is one line that names the
/// input and the cause, as the CLI's are.
@_spi(Fuzzing) public struct APIError: Error, Sendable {
    let status: HTTPResponse.Status
    public let code: String
    public let message: String
    /// Extra headers: Retry-After on 503, WWW-Authenticate on 401.
    var headers: HTTPFields = [:]

    static func undecodablePicture(_ error: DigitError, name: String) -> APIError {
        APIError(status: .badRequest, code: "undecodable_picture", message: error.about(name).description)
    }

    static func badOption(_ message: String) -> APIError {
        APIError(status: .badRequest, code: "bad_option", message: message)
    }

    static func badRequest(_ message: String) -> APIError {
        APIError(status: .badRequest, code: "bad_request", message: message)
    }

    static func unsupportedMediaType(_ type: String) -> APIError {
        APIError(status: .unsupportedMediaType, code: "unsupported_media_type",
                 message: "unsupported media type \(type): send image/png, image/jpeg, image/x-portable-anymap, application/octet-stream or multipart/form-data")
    }

    static func bodyTooLarge(limit: Int) -> APIError {
        APIError(status: .contentTooLarge, code: "body_too_large", message: "the request body is over the limit of \(limit) bytes (--max-body)")
    }

    static let queueFull = APIError(status: .serviceUnavailable, code: "queue_full",
                                    message: "the server is at its limit of pictures in progress (--max-queue); retry shortly",
                                    headers: [.retryAfter: "1"])

    static let shuttingDown = APIError(status: .serviceUnavailable, code: "shutting_down",
                                       message: "the server is stopping; retry on another instance",
                                       headers: [.retryAfter: "1"])

    static let unauthorized = APIError(status: .unauthorized, code: "unauthorized",
                                       message: "a bearer token is required: send Authorization: Bearer TOKEN",
                                       headers: [.wwwAuthenticate: "Bearer"])

    static func deadlineExceeded(_ deadline: Duration) -> APIError {
        APIError(status: .requestTimeout, code: "deadline_exceeded",
                 message: "the request took longer than the deadline of \(deadline.seconds) s (--deadline-seconds)")
    }

    static let upgradeRequired = APIError(status: .upgradeRequired, code: "upgrade_required",
                                          message: "/v1/stream is a WebSocket: send a GET with Upgrade: websocket",
                                          headers: [.upgrade: "websocket"])

    static func notFound(_ path: String) -> APIError {
        APIError(status: .notFound, code: "not_found", message: "no such route: \(path)")
    }

    static func methodNotAllowed(_ method: HTTPRequest.Method, _ path: String) -> APIError {
        APIError(status: .methodNotAllowed, code: "method_not_allowed", message: "\(method) is not allowed on \(path)")
    }

    static func internalError(_ message: String) -> APIError {
        APIError(status: .internalServerError, code: "internal_error", message: message)
    }

    /// The model failed or ran out of memory: the server's fault, not the picture's.
    static func modelFailed(_ error: DigitError) -> APIError {
        APIError(status: .internalServerError, code: "model_failed", message: error.description)
    }

    /// The JSON response for this error.
    var response: Response {
        var fields = headers
        fields[.contentType] = "application/json"
        let body = JSONLineEncoder().line(ErrorBody(error: message, code: code)) + "\n"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}

/// `{"error": "...", "code": "..."}`.
private struct ErrorBody: Encodable {
    let error: String
    let code: String
}
