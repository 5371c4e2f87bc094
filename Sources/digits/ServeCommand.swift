import ArgumentParser
import DigitKit
import DigitServer
import Foundation
import Logging

extension Digits {
    /// `digits serve`: the HTTP API, the WebSocket stream and the page.
    struct Serve: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Serve the recognizer over HTTP: a JSON API, a WebSocket stream and a page to draw on.",
            discussion: """
                POST /v1/classify (a picture as the body, or several as multipart/form-data; \
                query: top, raw, invert, uncertain_below, preprocessed) and POST /v1/read \
                (query: length) answer with the keys of classify --json and read --json. \
                GET /v1/stream is a WebSocket: binary frames in, the digit and clear events of \
                stream --json out. GET /healthz, /readyz, /metrics (Prometheus), /openapi.json, \
                and the page at /. Errors are {"error", "code"} with 400, 401, 404, 405, 408, 413, \
                415, 426, 500 or 503.

                Requests from all connections are classified together in batches of up to \
                --max-batch pictures, waiting at most --max-delay-ms for a batch to fill. When it \
                is listening, one line on standard output says where: "listening on \
                http://127.0.0.1:8080" (--port 0 picks a free port). SIGTERM or SIGINT stops \
                accepting (after --drain-seconds of /readyz saying draining), finishes the \
                requests in flight, and exits 0.

                Exit status: 0 stopped by a signal; 2 usage error, the model or ink locator is \
                missing or unusable, the token file cannot be read, or the address cannot be bound.
                """
        )

        @OptionGroup var modelOptions: ModelOptions
        @OptionGroup var locatorChoice: LocatorOptions

        @Option(name: .long, help: ArgumentHelp("The address to listen on.", valueName: "address"))
        var host = "127.0.0.1"

        @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("The port to listen on; 0 picks a free one.", valueName: "n"))
        var port = 8080

        @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Pictures classified together in one forward pass at most.", valueName: "n"))
        var maxBatch = 64

        @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("How long the first picture of a batch waits for others, in milliseconds.", valueName: "ms"))
        var maxDelayMs = 2.0

        @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("The largest request body, in bytes.", valueName: "bytes"))
        var maxBody = 20 * 1024 * 1024

        @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Pictures in progress at most; beyond, requests get 503 with Retry-After.", valueName: "n"))
        var maxQueue = 256

        @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Open connections at most; more wait to be accepted.", valueName: "n"))
        var maxConnections = 512

        @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("How long a request may take from its first byte to its answer.", valueName: "s"))
        var deadlineSeconds = 30.0

        @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("After SIGTERM, keep answering this long while /readyz says draining, for a load balancer to notice.", valueName: "s"))
        var drainSeconds = 0.0

        @Option(name: .long, help: ArgumentHelp("Ask for this file's token as Authorization: Bearer TOKEN on /v1/ and /metrics.", valueName: "path"),
                completion: .file())
        var tokenFile: String?

        @Option(name: .long, help: ArgumentHelp("Let pages from this origin call the API (CORS); off by default.", valueName: "origin"))
        var cors: String?

        func validate() throws {
            guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535, got \(port)") }
            guard (1...4096).contains(maxBatch) else { throw ValidationError("--max-batch must be between 1 and 4096, got \(maxBatch)") }
            guard (0...1000).contains(maxDelayMs) else { throw ValidationError("--max-delay-ms must be between 0 and 1000, got \(maxDelayMs)") }
            guard maxBody >= 1024 else { throw ValidationError("--max-body must be at least 1024 bytes, got \(maxBody)") }
            guard (1...1_000_000).contains(maxQueue) else { throw ValidationError("--max-queue must be between 1 and 1000000, got \(maxQueue)") }
            guard (1...1_000_000).contains(maxConnections) else { throw ValidationError("--max-connections must be between 1 and 1000000, got \(maxConnections)") }
            guard deadlineSeconds > 0, deadlineSeconds <= 3600 else { throw ValidationError("--deadline-seconds must be above 0 and at most 3600, got \(deadlineSeconds)") }
            guard (0...3600).contains(drainSeconds) else { throw ValidationError("--drain-seconds must be between 0 and 3600, got \(drainSeconds)") }
        }

        func run() throws {
            var configuration = ServerConfiguration()
            configuration.host = host
            configuration.port = port
            configuration.maxBatch = maxBatch
            configuration.maxDelay = .microseconds(Int64(maxDelayMs * 1000))
            configuration.maxBody = maxBody
            configuration.maxQueue = maxQueue
            configuration.maxConnections = maxConnections
            configuration.deadline = .milliseconds(Int64(deadlineSeconds * 1000))
            configuration.drainDelay = .milliseconds(Int64(drainSeconds * 1000))
            configuration.workers = modelOptions.workers(for: .preprocessingBound)
            configuration.corsOrigin = cors
            configuration.token = try tokenFile.map(Self.readToken)

            let model = try modelOptions.loadModel(for: .preprocessingBound)
            var preprocessor = Preprocessor()
            preprocessor.locator = try locatorChoice.loadLocator(besideDigitModel: model.path)
            let lineModel = ShippedModel.linePath(besideDigitModel: model.path).flatMap { try? LineModel(path: $0) }
            let logger = Logger(label: "digits-serve", factory: { label in StreamLogHandler.standardError(label: label) })
            let server: DigitServer
            do {
                server = try DigitServer(configuration: configuration, model: model, preprocessor: preprocessor, lineModel: lineModel, logger: logger)
            } catch {
                StandardError.report(error.description)
                throw ExitStatus.usageOrModel.exitCode
            }

            let outcome = BlockingRun.run {
                try await server.run { host, port in
                    // An IPv6 address in a URL is in brackets.
                    let shown = host.contains(":") ? "[\(host)]" : host
                    try? StandardOutput.shared.line("listening on http://\(shown):\(port)")
                    try? StandardOutput.shared.flush()
                }
            }
            if case .failure(let error) = outcome {
                StandardError.report("serve: \(error)")
                throw ExitStatus.usageOrModel.exitCode
            }
        }

        /// The token in `path`, without the line break at its end.
        static func readToken(_ path: String) throws -> String {
            guard let data = FileManager.default.contents(atPath: path) else {
                StandardError.report("\(path): the token file cannot be read")
                throw ExitStatus.usageOrModel.exitCode
            }
            let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !token.isEmpty, !token.contains(where: \.isWhitespace) else {
                StandardError.report("\(path): the token file must hold one token without spaces")
                throw ExitStatus.usageOrModel.exitCode
            }
            return token
        }
    }
}

/// Runs async work to its end from synchronous code (the commands' `run`):
/// the work runs on Swift's task pool while this thread waits.
enum BlockingRun {
    static func run(_ work: @escaping @Sendable () async throws -> Void) -> Result<Void, any Error> {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox()
        Task {
            do { try await work() } catch { box.set(.failure(error)) }
            done.signal()
        }
        done.wait()
        return box.result
    }

    private final class ResultBox: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Result<Void, any Error> = .success(())
        var result: Result<Void, any Error> { lock.withLock { stored } }
        func set(_ result: Result<Void, any Error>) { lock.withLock { stored = result } }
    }
}
