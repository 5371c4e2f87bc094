import DigitKit
import Foundation

/// Gathers the tensors of many requests into one forward pass: up to
/// `maxBatch` of them, or whatever has come when the oldest has waited
/// `maxDelay` (the dynamic batching of TorchServe's `batch_size` /
/// `max_batch_delay`). It waits only while other pictures are still being
/// decoded and could join: when every picture in progress is queued here,
/// the batch goes at once, so a lone request pays no delay. The forward
/// passes run on a thread of their own, so neither the event loop nor the
/// decoding workers wait for libtorch. A failed batch fails only the
/// requests whose own picture fails (`IsolatedForward`).
final class InferenceBatcher: @unchecked Sendable {
    /// The sizes of the batches run, for /metrics.
    typealias BatchObserver = @Sendable (_ size: Int, _ seconds: Double) -> Void

    private struct Pending {
        let tensor: DigitTensor
        /// Seconds since boot (monotonic): a change of the wall clock moves no batch.
        let arrived: TimeInterval
        let continuation: CheckedContinuation<Prediction, any Error>
    }

    private let model: DigitModel
    private let maxBatch: Int
    private let maxDelay: TimeInterval
    private let observe: BatchObserver
    /// Pictures in progress in the whole server (AdmissionLimit).
    private let inProgress: @Sendable () -> Int
    /// Guards `pending` and `running`; signalled when either changes.
    private let condition = NSCondition()
    private var pending: [Pending] = []
    private var running = true

    init(model: DigitModel, maxBatch: Int, maxDelay: Duration, inProgress: @escaping @Sendable () -> Int = { 0 },
         observe: @escaping BatchObserver = { _, _ in }) {
        self.inProgress = inProgress
        self.model = model
        self.maxBatch = maxBatch
        self.maxDelay = maxDelay.timeInterval
        self.observe = observe
        // The thread holds the batcher until stop() lets its loop end; the
        // batcher does not hold the thread (a Thread keeps its closure, so
        // that would be a cycle that outlives both).
        let thread = Thread { self.loop() }
        thread.name = "digits-forward"
        thread.start()
    }

    /// The model's prediction for `tensor`, from the next batch.
    func predict(_ tensor: DigitTensor) async throws -> Prediction {
        try await withCheckedThrowingContinuation { continuation in
            condition.lock()
            defer { condition.unlock() }
            guard running else {
                continuation.resume(throwing: APIError.shuttingDown)
                return
            }
            pending.append(Pending(tensor: tensor, arrived: ProcessInfo.processInfo.systemUptime, continuation: continuation))
            condition.signal()
        }
    }

    /// Lets the thread run what is queued and end (without waiting for it);
    /// later calls fail.
    func stop() {
        condition.lock()
        running = false
        condition.signal()
        condition.unlock()
    }

    private func loop() {
        while let batch = nextBatch() {
            let started = ProcessInfo.processInfo.systemUptime
            // Each request gets its own answer or its own error: a failed batch
            // is run again picture by picture, so that no request fails for
            // the others it was batched with.
            let answered = IsolatedForward.run(batch.map { [$0.tensor] }) { try model.predict($0) }
            for (waiting, answer) in zip(batch, answered) {
                waiting.continuation.resume(with: answer.map { $0.first! })
            }
            observe(batch.count, ProcessInfo.processInfo.systemUptime - started)
        }
    }

    /// Waits for a first tensor, then for a full batch or the first one's
    /// delay; nil once stopped with nothing left.
    private func nextBatch() -> [Pending]? {
        condition.lock()
        defer { condition.unlock() }
        while pending.isEmpty {
            if !running { return nil }
            condition.wait()
        }
        let due = pending[0].arrived + maxDelay
        while running, pending.count < maxBatch, pending.count < inProgress() {
            let remaining = due - ProcessInfo.processInfo.systemUptime
            guard remaining > 0 else { break }
            _ = condition.wait(until: Date(timeIntervalSinceNow: remaining))
        }
        let batch = Array(pending.prefix(maxBatch))
        pending.removeFirst(batch.count)
        return batch
    }
}
