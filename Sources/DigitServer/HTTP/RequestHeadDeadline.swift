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
    private var timer: Scheduled<Void>?
    /// Requests whose head came and whose answer has not ended: with a
    /// pipelined request behind an answer, the clock must not start.
    private var inFlight = 0

    init(deadline: TimeAmount) {
        self.deadline = deadline
    }

    /// Added to a connection already accepted: the clock starts now.
    func handlerAdded(context: ChannelHandlerContext) {
        arm(context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            inFlight += 1
            disarm()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            inFlight = max(0, inFlight - 1)
            if inFlight == 0 { arm(context) }
        }
        context.write(data, promise: promise)
    }

    private func arm(_ context: ChannelHandlerContext) {
        disarm()
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: deadline) { channel.close(promise: nil) }
    }

    private func disarm() {
        timer?.cancel()
        timer = nil
    }
}
