import HummingbirdCore
import Logging
import NIOCore

/// Closes a new connection that has had no answer at all by the deadline
/// (and a second's grace, for a 408 written at the deadline to go out).
/// The HTTP handlers that could watch for a request head are set up only
/// once the first head has been parsed (the WebSocket upgrade waits for it),
/// and a head the parser refuses may leave the connection with no answer
/// and no end; so this handler, at the front of the pipeline, watches bytes:
/// a client that trickles its first head (slowloris) or sends one that is
/// not HTTP is cut. From the first answer on, RequestHeadDeadline watches.
final class FirstRequestHeadDeadline: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private let deadline: TimeAmount
    private var timer = ConnectionCloseTimer()

    init(deadline: TimeAmount) {
        self.deadline = deadline
    }

    func handlerAdded(context: ChannelHandlerContext) {
        timer.arm(context, after: deadline + .seconds(1))
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer.disarm()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        timer.disarm()
        context.write(data, promise: promise)
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
