import NIOCore

/// The clock of the request-head deadlines: closes a connection when it runs
/// out, unless disarmed first. Used on the connection's event loop only.
struct ConnectionCloseTimer {
    private var scheduled: Scheduled<Void>?

    /// Starts the clock again: the connection closes after `delay`.
    mutating func arm(_ context: ChannelHandlerContext, after delay: TimeAmount) {
        disarm()
        let channel = context.channel
        scheduled = context.eventLoop.scheduleTask(in: delay) { channel.close(promise: nil) }
    }

    mutating func disarm() {
        scheduled?.cancel()
        scheduled = nil
    }
}
