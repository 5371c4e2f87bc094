import NIOCore

/// The server's settings are `Duration`s; NSCondition waits in seconds,
/// NIO's timers in `TimeAmount`, and error messages name seconds as text.
extension Duration {
    /// Seconds, with their fraction.
    var timeInterval: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// The same span for NIO's timers, to the nanosecond.
    var timeAmount: TimeAmount {
        .nanoseconds(components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000)
    }

    /// Whole and fractional seconds, as a person writes them ("30", "0.5").
    var seconds: String {
        timeInterval == timeInterval.rounded() ? String(Int(timeInterval)) : String(timeInterval)
    }
}
