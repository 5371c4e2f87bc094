import DigitKit
import Foundation
import Testing
import TestSupport

/// `/healthz`, `/readyz`, `/metrics`, `/openapi.json` and the page.
@Suite("digits serve service routes")
struct ServeServiceTests {
    @Test("health and readiness answer JSON; the page and its assets come with a strict CSP")
    func healthAndPage() throws {
        let server = try ServerUnderTest()
        defer { _ = server.stop() }
        #expect(try server.request("GET", "/healthz").json["status"] as? String == "ok")
        // Ready once warmed: a moment after it listens.
        let ready = try server.waitUntilReady()
        #expect(ready.status == 200 && ready.json["status"] as? String == "ready")
        for (path, type) in [("/", "text/html"), ("/app.js", "text/javascript"), ("/app.css", "text/css")] {
            let response = try server.request("GET", path)
            #expect(response.status == 200 && response.headers["content-type"]?.hasPrefix(type) == true, "\(path)")
            #expect(response.headers["content-security-policy"]?.contains("default-src 'self'") == true, "\(path)")
            #expect(!response.body.isEmpty)
        }
    }

    @Test("/metrics counts requests by route and status in the Prometheus text format")
    func metrics() throws {
        let server = try ServerUnderTest()
        defer { _ = server.stop() }
        _ = try server.request("GET", "/nowhere/\(UUID().uuidString)")
        _ = try server.post("/v1/classify", file: Fixtures.repositoryRoot.appendingPathComponent("Examples/two.png").path)
        let text = try server.request("GET", "/metrics").text
        #expect(text.contains("digits_http_requests_total{route=\"/v1/classify\",status=\"200\"} 1"), "\(text)")
        #expect(text.contains("digits_http_requests_total{route=\"other\",status=\"404\"} 1"), "a stranger's path adds no series of its own")
        for name in ["digits_http_request_duration_seconds_bucket", "digits_batch_size_bucket", "digits_queue_depth", "digits_pictures_per_second", "digits_forward_seconds_count"] {
            #expect(text.contains(name), "\(name)")
        }
    }

    @Test("/openapi.json is OpenAPI 3.1, names exactly the server's routes, each of which answers, and every error code and reading warning")
    func openAPIMatchesServer() throws {
        let server = try ServerUnderTest()
        defer { _ = server.stop() }
        let document = try server.request("GET", "/openapi.json").json
        #expect(document["openapi"] as? String == "3.1.0")
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        #expect(Set(paths.keys) == ["/", "/v1/classify", "/v1/read", "/v1/stream", "/healthz", "/readyz", "/metrics", "/openapi.json"])
        for (path, operations) in paths {
            for method in operations.keys {
                let response = try server.request(method.uppercased(), path)
                #expect(response.status != 404 && response.status != 405, "\(method) \(path): \(response.status)")
                let documented = (operations[method] as? [String: Any])?["responses"] as? [String: Any] ?? [:]
                #expect(documented[String(response.status)] != nil, "\(method) \(path) answered \(response.status), not in the document")
            }
        }
        let codes = ((((document["components"] as? [String: Any])?["schemas"] as? [String: Any])?["Error"] as? [String: Any])?["properties"] as? [String: Any])
        let documentedCodes = Set((codes?["code"] as? [String: Any])?["enum"] as? [String] ?? [])
        let sourceCodes = try Self.errorCodesInSource()
        #expect(sourceCodes.isSubset(of: documentedCodes), "undocumented: \(sourceCodes.subtracting(documentedCodes))")
        let reading = (((document["components"] as? [String: Any])?["schemas"] as? [String: Any])?["Reading"] as? [String: Any])?["properties"] as? [String: Any]
        let warnings = ((reading?["warnings"] as? [String: Any])?["items"] as? [String: Any])?["enum"] as? [String]
        #expect(warnings.map(Set.init) == Set(ReadingWarning.allCases.map(\.rawValue)), "a reading's warnings: \(warnings ?? [])")
        let classification = (((document["components"] as? [String: Any])?["schemas"] as? [String: Any])?["Classification"] as? [String: Any])?["properties"] as? [String: Any]
        let doubts = ((classification?["warnings"] as? [String: Any])?["items"] as? [String: Any])?["enum"] as? [String]
        #expect(doubts.map(Set.init) == Set(PreprocessingWarning.allCases.map(\.rawValue)), "a classification's warnings: \(doubts ?? [])")
    }

    /// Every `code: "..."` an APIError is made with in the server's source.
    static func errorCodesInSource() throws -> Set<String> {
        let source = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("Sources/DigitServer/HTTP/APIError.swift"), encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"code: "([a-z_]+)""#)
        let matches = pattern.matches(in: source, range: NSRange(source.startIndex..., in: source))
        return Set(matches.compactMap { Range($0.range(at: 1), in: source).map { String(source[$0]) } })
    }
}
