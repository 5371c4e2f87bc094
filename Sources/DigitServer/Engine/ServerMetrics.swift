import Foundation
import NIOConcurrencyHelpers
import Prometheus

/// What /metrics reports, in the Prometheus text format: requests by route
/// and status, their latency, the batches run, the pictures in progress and
/// pictures per second. A registry of the server's own, so that several
/// servers in one process (the tests) keep apart.
final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let batchSizes: ValueHistogram
    private let forwardSeconds: DurationHistogram
    private let pictures: Counter
    private let queueDepth: Gauge
    private let picturesPerSecond: Gauge
    private let recent = NIOLockedValueBox(PictureRate())

    private static let latencyBuckets: [Duration] = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000].map { .milliseconds($0) }

    init() {
        batchSizes = registry.makeValueHistogram(
            descriptor: .init(namespace: "digits", metricName: "batch", unitName: "size", helpText: "Pictures per forward pass."),
            buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256])
        forwardSeconds = registry.makeDurationHistogram(
            descriptor: .init(namespace: "digits", metricName: "forward", unitName: "seconds", helpText: "Time of one batched forward pass."),
            buckets: Self.latencyBuckets)
        pictures = registry.makeCounter(
            descriptor: .init(namespace: "digits", metricName: "pictures", unitName: "total", helpText: "Pictures classified in batches."))
        queueDepth = registry.makeGauge(
            descriptor: .init(namespace: "digits", metricName: "queue", unitName: "depth", helpText: "Pictures in progress: decoding, waiting for a batch or in a forward pass."))
        picturesPerSecond = registry.makeGauge(
            descriptor: .init(namespace: "digits", metricName: "pictures_per", unitName: "second", helpText: "Pictures classified per second over the last 10 seconds."))
    }

    /// One request answered.
    func request(route: String, status: Int, seconds: Duration) {
        registry.makeCounter(
            descriptor: .init(namespace: "digits", subsystem: "http", metricName: "requests", unitName: "total", helpText: "HTTP requests by route and status."),
            labels: [("route", route), ("status", String(status))]).increment()
        registry.makeDurationHistogram(
            descriptor: .init(namespace: "digits", subsystem: "http", metricName: "request_duration", unitName: "seconds", helpText: "Time from a request's head to its answer."),
            labels: [("route", route)], buckets: Self.latencyBuckets).record(seconds)
    }

    /// One batched forward pass of `size` pictures.
    func batchRun(size: Int, seconds: Double) {
        batchSizes.record(Double(size))
        forwardSeconds.record(.nanoseconds(Int64(seconds * 1e9)))
        pictures.increment(by: Int64(size))
        recent.withLockedValue { $0.add(size, at: Date().timeIntervalSince1970) }
    }

    /// One WebSocket frame, by what came of it (analysed, dropped, failed).
    func streamFrame(_ outcome: String) {
        registry.makeCounter(
            descriptor: .init(namespace: "digits", subsystem: "stream", metricName: "frames", unitName: "total", helpText: "WebSocket frames by outcome."),
            labels: [("outcome", outcome)]).increment()
    }

    /// The text of /metrics, with the gauges read now.
    func exposition(inProgress: Int) -> [UInt8] {
        queueDepth.set(Double(inProgress))
        picturesPerSecond.set(recent.withLockedValue { $0.perSecond(at: Date().timeIntervalSince1970) })
        return registry.emitToBuffer()
    }
}

/// Pictures counted per whole second over the last ten.
struct PictureRate {
    private var seconds: [Int: Int] = [:]
    static let window = 10

    mutating func add(_ count: Int, at time: Double) {
        let second = Int(time)
        seconds[second, default: 0] += count
        seconds = seconds.filter { $0.key > second - Self.window }
    }

    func perSecond(at time: Double) -> Double {
        let now = Int(time)
        let total = seconds.filter { $0.key > now - Self.window }.values.reduce(0, +)
        return Double(total) / Double(Self.window)
    }
}
