/// What `digits serve` listens on and the limits it keeps (`digits serve --help`).
public struct ServerConfiguration: Sendable {
    /// The address to listen on: loopback unless told otherwise.
    public var host = "127.0.0.1"
    /// The port; 0 picks a free one (the "listening on" line names it).
    public var port = 8080
    /// Pictures gathered into one forward pass at most.
    public var maxBatch = 64
    /// How long the first picture of a batch waits for others.
    public var maxDelay: Duration = .milliseconds(2)
    /// Threads that decode and preprocess (never the event loop's).
    public var workers = 2
    /// The largest request body.
    public var maxBody = 20 * 1024 * 1024
    /// Pictures admitted at once (decoding, waiting or in a forward pass);
    /// beyond it a request gets 503 with Retry-After.
    public var maxQueue = 256
    /// Request body bytes held at once (being read or waiting for their
    /// pictures' turn); beyond it a request gets 503 before its body is read.
    public var maxBodyBytesInFlight = 256 * 1024 * 1024
    /// After SIGTERM, how long to keep answering while /readyz says
    /// "draining", so that a load balancer polling it stops sending first.
    public var drainDelay: Duration = .zero
    /// Open connections at most; more wait in the listen backlog.
    public var maxConnections = 512
    /// How long a request may take from its first byte to its answer; a slow
    /// upload or a trickled header is cut when it runs out.
    public var deadline: Duration = .seconds(30)
    /// The bearer token the API asks for, if any.
    public var token: String?
    /// The one origin allowed to call the API from a browser, if any.
    public var corsOrigin: String?
    /// The largest WebSocket message (one frame).
    public var maxFrameBytes = 8 * 1024 * 1024
    /// Frames a WebSocket may send per second; more are dropped.
    public var maxFramesPerSecond = 60

    public init() {}

    /// What is wrong with these settings, if anything.
    public var problem: String? {
        if !(1...4096).contains(maxBatch) { return "maxBatch must be between 1 and 4096, got \(maxBatch)" }
        if maxDelay < .zero || maxDelay > .seconds(1) { return "maxDelay must be between 0 and 1 s, got \(maxDelay)" }
        if workers < 1 { return "workers must be at least 1, got \(workers)" }
        if maxBody < 1 { return "maxBody must be at least 1 byte, got \(maxBody)" }
        if maxBodyBytesInFlight < maxBody { return "maxBodyBytesInFlight must be at least maxBody, got \(maxBodyBytesInFlight)" }
        if maxQueue < 1 { return "maxQueue must be at least 1, got \(maxQueue)" }
        if maxConnections < 1 { return "maxConnections must be at least 1, got \(maxConnections)" }
        if deadline <= .zero { return "deadline must be above 0, got \(deadline)" }
        if drainDelay < .zero { return "drainDelay must not be negative, got \(drainDelay)" }
        if maxFrameBytes < 1 { return "maxFrameBytes must be at least 1, got \(maxFrameBytes)" }
        if maxFramesPerSecond < 1 { return "maxFramesPerSecond must be at least 1, got \(maxFramesPerSecond)" }
        if let token, token.isEmpty { return "token must not be empty" }
        return nil
    }
}
