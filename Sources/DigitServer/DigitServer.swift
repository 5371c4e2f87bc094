import DigitKit
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import ServiceLifecycle
import UnixSignals

/// `digits serve`: the HTTP API (`/v1/classify`, `/v1/read`), the WebSocket
/// stream (`/v1/stream`), health, readiness, metrics, the OpenAPI document
/// and the page, over one loaded model. Stateless: any number of them can
/// stand behind a load balancer.
public struct DigitServer: Sendable {
    let configuration: ServerConfiguration
    let model: DigitModel
    let preprocessor: Preprocessor
    let lineModel: LineModel?
    let logger: Logger

    /// A server over `model`, finding ink with `preprocessor` (which holds
    /// the ink locator, if any) and reading numbers with `lineModel`; throws
    /// when a setting is out of range (`ServerConfiguration.problem`).
    public init(configuration: ServerConfiguration, model: DigitModel, preprocessor: Preprocessor, lineModel: LineModel?,
                logger: Logger) throws(DigitError) {
        if let problem = configuration.problem { throw DigitError(.invalidArgument, problem) }
        self.configuration = configuration
        self.model = model
        self.preprocessor = preprocessor
        self.lineModel = lineModel
        self.logger = logger
    }

    /// Serves until SIGTERM or SIGINT; then /readyz says "draining" for
    /// `drainDelay` while requests are still answered, and the server stops
    /// accepting, finishes what is in flight and returns. `onListening` gets the address once bound
    /// (the port the system chose for port 0).
    public func run(onListening: @escaping @Sendable (_ host: String, _ port: Int) -> Void) async throws {
        let metrics = ServerMetrics()
        let engine = RecognitionEngine(model: model, preprocessor: preprocessor, lineModel: lineModel,
                                       configuration: configuration, metrics: metrics)
        let readiness = Readiness()
        let router = makeRouter(engine: engine, readiness: readiness)
        let deadline = configuration.deadline.timeAmount
        let app = Application(
            router: router,
            server: Self.serverBuilder(router: router, configuration: configuration, deadline: deadline),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "digits",
                                 availableConnectionsDelegate: MaximumAvailableConnections(configuration.maxConnections, logger: logger)),
            services: [WarmUpService(engine: engine, readiness: readiness, logger: logger)],
            onServerRunning: { [configuration] channel in
                onListening(configuration.host, channel.localAddress?.port ?? configuration.port)
            },
            logger: logger)
        defer { logger.info("stopped") }
        // Shut down in reverse order: the drain first, while the server still answers.
        let group = ServiceGroup(configuration: .init(
            services: [app, DrainService(readiness: readiness, delay: configuration.drainDelay, logger: logger)],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        do {
            try await group.run()
        } catch {
            await engine.shutdown()
            throw error
        }
        await engine.shutdown()
    }

    /// HTTP/1.1 with the WebSocket upgrade, each connection's request heads
    /// held to the deadline (FirstRequestHeadDeadline, RequestHeadDeadline).
    private static func serverBuilder(router: Router<BasicWebSocketRequestContext>, configuration: ServerConfiguration,
                                      deadline: TimeAmount) -> HTTPServerBuilder {
        let webSocketResponder = router.buildResponder()
        let channelConfiguration = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: .init(additionalChannelHandlers: [RequestHeadDeadline(deadline: deadline)]),
            ws: .init(maxFrameSize: configuration.maxFrameBytes, autoPing: .enabled(timePeriod: .seconds(30))))
        return HTTPServerBuilder { responder in
            HeadDeadlineChildChannel(
                inner: HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: webSocketResponder, configuration: channelConfiguration),
                deadline: deadline)
        }
    }

    private func makeRouter(engine: RecognitionEngine, readiness: Readiness) -> Router<BasicWebSocketRequestContext> {
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.add(middleware: APIMiddleware(metrics: engine.metrics, maxBody: configuration.maxBody))
        if let origin = configuration.corsOrigin {
            router.add(middleware: CORSMiddleware(allowOrigin: .custom(origin), allowHeaders: [.contentType, .authorization],
                                                  allowMethods: [.get, .post, .options]))
        }
        if let token = configuration.token {
            router.add(middleware: BearerTokenMiddleware(token: token))
        }
        let classify = ClassifyRoute(engine: engine, configuration: configuration)
        let read = ReadRoute(engine: engine, configuration: configuration)
        router.post("/v1/classify") { request, _ in try await classify.respond(request) }
        router.post("/v1/read") { request, _ in try await read.respond(request) }
        StreamRoute(engine: engine, configuration: configuration).add(to: router)
        ServiceRoutes.add(to: router, readiness: readiness, engine: engine)
        return router
    }
}

/// Warms the models once the server listens, then marks it ready, and stays
/// until the shutdown (a service of the application that ends would end it).
struct WarmUpService: Service {
    let engine: RecognitionEngine
    let readiness: Readiness
    let logger: Logger

    func run() async throws {
        try await engine.warmUp()
        readiness.markReady()
        logger.info("ready")
        try? await gracefulShutdown()
    }
}

/// At a graceful shutdown, before the server stops accepting: marks it not
/// ready and waits `delay`, so that a load balancer polling /readyz stops
/// sending new requests while this one still answers them.
struct DrainService: Service {
    let readiness: Readiness
    let delay: Duration
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()
        readiness.markDraining()
        logger.info("draining")
        if delay > .zero { try? await Task.sleep(for: delay) }
    }
}
