import HummingbirdCore
import Logging
import NIOCore

/// Closes a new connection that has not sent its first request head (up to
/// the blank line) within the deadline. The HTTP handlers that could watch
/// for a request head are set up only once the first head has been parsed
/// (the WebSocket upgrade waits for it), so this one reads bytes; from the
/// second request on, RequestHeadDeadline watches. Passive once the head is seen.
final class FirstRequestHeadDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let deadline: TimeAmount
    private var timer: Scheduled<Void>?
    /// The last bytes seen, to find CR LF CR LF across reads.
    private var tail: [UInt8] = []
    /// Whether a byte other than CR or LF came: HTTP parsers skip blank
    /// lines before a request line, so "\r\n\r\n" alone is no head.
    private var requestLineStarted = false
    private var headSeen = false

    init(deadline: TimeAmount) {
        self.deadline = deadline
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: deadline) { channel.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if !headSeen {
            var bytes = tail + Array(unwrapInboundIn(data).readableBytesView)
            if !requestLineStarted {
                bytes = Array(bytes.drop { $0 == 13 || $0 == 10 })
                requestLineStarted = !bytes.isEmpty
            }
            if bytes.count >= 4, (0...(bytes.count - 4)).contains(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 && bytes[$0 + 2] == 13 && bytes[$0 + 3] == 10 }) {
                headSeen = true
                timer?.cancel()
                tail = []
            } else {
                tail = Array(bytes.suffix(3))
            }
        }
        context.fireChannelRead(data)
    }
}

/// A server connection set up by `inner`, with FirstRequestHeadDeadline in
/// front of its pipeline.
struct HeadDeadlineChildChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value
    let inner: Inner
    let deadline: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(FirstRequestHeadDeadline(deadline: deadline))
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return inner.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
