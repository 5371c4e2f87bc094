import Foundation

/// A `digits serve --port 0` process for the API tests: started, waited for
/// until it prints where it listens, and stopped with SIGTERM.
package final class ServerUnderTest: @unchecked Sendable {
    package let process: RunningCommand
    package let port: UInt16

    package init(_ arguments: [String] = [], environment: [String: String]? = nil) throws {
        // A generous deadline unless a test sets its own: under the sanitizers, with the
        // whole suite running at once, a request can take many seconds.
        let deadline = arguments.contains("--deadline-seconds") ? [] : ["--deadline-seconds", "300"]
        process = try RunningCommand(["serve", "--port", "0", "--threads", "2"] + deadline + arguments,
                                     environment: environment)
        guard process.waitForOutput(containing: "\n", seconds: 60),
              let line = process.outputSoFar.split(separator: "\n").first, line.hasPrefix("listening on http://127.0.0.1:"),
              let port = UInt16(line.split(separator: ":").last ?? "") else {
            process.terminate()
            let result = process.finish()
            throw ServerStartFailure(description: "digits serve did not start: \(result.stdout) \(result.stderr)")
        }
        self.port = port
    }

    /// A server whose warm-up is over, as a load balancer sends to: for a
    /// test that counts threads or forward passes, or compares an answer
    /// with the CLI's exactly. The server batches a picture with any that
    /// waits beside it, the warm-up's too, and a batch's make-up changes the
    /// last digits of the probabilities (docs/commands.md).
    package static func ready(_ arguments: [String] = [], environment: [String: String]? = nil) throws -> ServerUnderTest {
        let server = try ServerUnderTest(arguments, environment: environment)
        let ready: HTTPTestResponse
        do {
            ready = try server.waitUntilReady()
        } catch {
            _ = server.stop()
            throw error
        }
        guard ready.status == 200 else {
            let result = server.stop()
            throw ServerStartFailure(description: "digits serve did not get ready: \(ready.status) \(ready.text) \(result.stderr)")
        }
        return server
    }

    /// Polls `/readyz` until it answers 200 (the models warmed) or
    /// `seconds` pass, and returns its last answer: under the sanitizers,
    /// with the whole suite running at once, warming takes many seconds.
    package func waitUntilReady(seconds: Double = 180) throws -> HTTPTestResponse {
        let deadline = Date().addingTimeInterval(seconds)
        var ready = try request("GET", "/readyz")
        while ready.status != 200, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            ready = try request("GET", "/readyz")
        }
        return ready
    }

    /// One request on a connection of its own.
    package func request(_ method: String, _ path: String, headers: [String: String] = [:], body: [UInt8] = []) throws -> HTTPTestResponse {
        try HTTPTestClient.request(port: port, method: method, path: path, headers: headers, body: body)
    }

    /// POSTs a file's bytes.
    package func post(_ path: String, file: String, type: String = "image/png") throws -> HTTPTestResponse {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        return try request("POST", path, headers: ["Content-Type": type], body: bytes)
    }

    /// Stops it with SIGTERM and waits for it to end.
    package func stop() -> CommandResult {
        process.terminate()
        return process.finish()
    }
}

package struct ServerStartFailure: Error, CustomStringConvertible {
    package let description: String
}
