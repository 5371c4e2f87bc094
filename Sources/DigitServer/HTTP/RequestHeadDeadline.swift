import NIOCore
import NIOHTTPTypes

/// Closes a connection that has not sent a whole request head within the
/// deadline of its opening or of its last answer: a client that trickles
/// its headers a byte at a time (slowloris) or holds an idle connection
/// open cannot keep a slot forever. A slow body is the route's deadline's
/// (`withDeadline`). One handler per connection, on its event loop.
final class RequestHeadDeadline: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let deadline: TimeAmount
    private var timer = ConnectionCloseTimer()
    /// Requests whose head came and whose answer has not ended: with a
    /// pipelined request behind an answer, the clock must not start.
    private var inFlight = 0

    init(deadline: TimeAmount) {
        self.deadline = deadline
    }

    /// Added to a connection already accepted: the clock starts now.
    func handlerAdded(context: ChannelHandlerContext) {
        timer.arm(context, after: deadline)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer.disarm()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            inFlight += 1
            timer.disarm()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            inFlight = max(0, inFlight - 1)
            if inFlight == 0 { timer.arm(context, after: deadline) }
        }
        context.write(data, promise: promise)
    }
}
