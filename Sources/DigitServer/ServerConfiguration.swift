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
}
