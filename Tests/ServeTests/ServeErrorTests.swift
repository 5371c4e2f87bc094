import Foundation
import Testing
import TestSupport

/// Every error the API answers: the status, `{"error", "code"}`, and a
/// message that names the input and the cause.
@Suite("digits serve errors")
struct ServeErrorTests {
    let seven = Fixtures.repositoryRoot.appendingPathComponent("Examples/seven.png").path

    func expectError(_ response: HTTPTestResponse, _ status: Int, _ code: String, mentioning text: String,
                     sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == status, "\(response.text)", sourceLocation: sourceLocation)
        #expect(response.headers["content-type"] == "application/json", sourceLocation: sourceLocation)
        #expect(response.json["code"] as? String == code, "\(response.text)", sourceLocation: sourceLocation)
        let message = response.json["error"] as? String ?? ""
        #expect(message.contains(text) && !message.contains("\n"), "\(message)", sourceLocation: sourceLocation)
    }

    @Test("bad pictures, options, types, routes and methods")
    func clientErrors() throws {
        let server = try ServerUnderTest()
        defer { _ = server.stop() }
        expectError(try server.request("POST", "/v1/classify", headers: ["Content-Type": "image/png"], body: Array("not a picture at all".utf8)),
                    400, "undecodable_picture", mentioning: "the picture: ")
        expectError(try server.request("POST", "/v1/classify", headers: ["Content-Type": "image/png"], body: []),
                    400, "bad_request", mentioning: "empty")
        expectError(try server.post("/v1/classify?top=11", file: seven), 400, "bad_option", mentioning: "top")
        expectError(try server.post("/v1/classify?invert=sideways", file: seven), 400, "bad_option", mentioning: "sideways")
        expectError(try server.post("/v1/classify?raw=true&invert=always", file: seven), 400, "bad_option", mentioning: "raw")
        expectError(try server.post("/v1/classify?uncertain_below=2", file: seven), 400, "bad_option", mentioning: "uncertain_below")
        expectError(try server.post("/v1/read?length=0", file: seven), 400, "bad_option", mentioning: "length")
        expectError(try server.post("/v1/classify", file: seven, type: "text/plain"), 415, "unsupported_media_type", mentioning: "text/plain")
        expectError(try server.post("/v1/classify", file: seven, type: "image/gif"), 415, "unsupported_media_type", mentioning: "image/gif")
        expectError(try server.post("/v1/read", file: seven, type: "multipart/form-data; boundary=x"), 415, "unsupported_media_type", mentioning: "multipart")
        expectError(try server.request("POST", "/v1/classify", headers: ["Content-Type": "multipart/form-data; boundary=abc"], body: Array("--abc\r\nno end".utf8)),
                    400, "bad_request", mentioning: "multipart")
        expectError(try server.request("GET", "/nowhere"), 404, "not_found", mentioning: "/nowhere")
        expectError(try server.request("GET", "/v1/classify"), 405, "method_not_allowed", mentioning: "GET")
        expectError(try server.request("GET", "/v1/stream"), 426, "upgrade_required", mentioning: "WebSocket")
    }

    @Test("a body over --max-body is 413, told by its Content-Length before it is read")
    func bodyTooLarge() throws {
        let server = try ServerUnderTest(["--max-body", "4096"])
        defer { _ = server.stop() }
        let photo = Fixtures.repositoryRoot.appendingPathComponent("Examples/eight-photo-400.png").path
        expectError(try server.post("/v1/classify", file: photo), 413, "body_too_large", mentioning: "4096")
        #expect(try server.post("/v1/classify", file: seven).status == 200)
    }

    @Test("with --token-file the API asks for the bearer token; health, readiness and the page do not")
    func token() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digits-token-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let tokenFile = folder.appendingPathComponent("token").path
        try "s3cret-token\n".write(toFile: tokenFile, atomically: true, encoding: .utf8)
        let server = try ServerUnderTest(["--token-file", tokenFile])
        defer { _ = server.stop() }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: seven)))
        expectError(try server.request("POST", "/v1/classify", body: bytes), 401, "unauthorized", mentioning: "Bearer")
        expectError(try server.request("POST", "/v1/classify", headers: ["Authorization": "Bearer s3cret-tokeX"], body: bytes),
                    401, "unauthorized", mentioning: "Bearer")
        expectError(try server.request("GET", "/metrics"), 401, "unauthorized", mentioning: "Bearer")
        // Paths the router matches as the same route ask for the token too.
        expectError(try server.request("GET", "/metrics/"), 401, "unauthorized", mentioning: "Bearer")
        expectError(try server.request("POST", "//v1/classify", body: bytes), 401, "unauthorized", mentioning: "Bearer")
        #expect(try server.request("POST", "/v1/classify", headers: ["Authorization": "bearer s3cret-token"], body: bytes).status == 200,
                "the scheme's name is case-insensitive")
        #expect(try server.request("POST", "/v1/classify", headers: ["Authorization": "Bearer s3cret-token"], body: bytes).json["digit"] as? Int == 7)
        // Readiness is asked without a token once the models are warmed.
        #expect(try server.waitUntilReady().status == 200)
        for path in ["/healthz", "/readyz", "/", "/openapi.json"] {
            #expect(try server.request("GET", path).status == 200, "\(path)")
        }
    }

    @Test("a token file that cannot be read or holds no token ends serve with status 2 and one line")
    func badTokenFile() throws {
        let missing = try CommandRunner.digits(["serve", "--port", "0", "--token-file", "/nonexistent/token"])
        #expect(missing.status == 2)
        #expect(missing.stderrLines == ["digits: /nonexistent/token: the token file cannot be read"], "\(missing.stderr)")
        let usage = try CommandRunner.digits(["serve", "--port", "70000"])
        #expect(usage.status == 2)
        #expect(usage.stderr.contains("--port"))
    }
}
