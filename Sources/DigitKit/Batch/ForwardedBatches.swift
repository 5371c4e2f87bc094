extension BatchRun {
    /// Runs the batches through one model: the tensors every slot of a batch
    /// asks about go to `forward` in one call, on the calling thread; then
    /// `deliver` gets each slot, in input order, with its own predictions,
    /// and `afterEachBatch` is called. Where that call fails, each slot's
    /// tensors are forwarded on their own (`IsolatedForward`), so that a
    /// batch too large for the memory left costs nothing; a slot whose own
    /// forward pass fails stops the run there. The statistics count the
    /// forward passes, failed ones too, as `passes` says one call of
    /// `forward` makes. An error from any of them stops the workers and is
    /// rethrown; the results delivered before it stand. `whileStarting`: as
    /// in `runBatches`.
    func runForwarding(whileStarting: () throws -> Void = {},
                       tensors: (Prepared) -> [DigitTensor],
                       forward: ([DigitTensor]) throws -> [Prediction],
                       passes: (_ tensorCount: Int) -> Int = { _ in 1 },
                       deliver: (_ position: Int, Slot, ArraySlice<Prediction>) throws -> Void,
                       afterEachBatch: () throws -> Void) throws -> BatchStatistics {
        var forwardSeconds = 0.0, forwardPasses = 0
        var statistics = try runBatches(whileStarting: whileStarting) { first, batch in
            let started = monotonicSeconds()
            let answered = IsolatedForward.run(batch.map { tensors($0.prepared) }, untilFirstFailure: true) { asked in
                defer { forwardPasses += passes(asked.count) }
                return try forward(asked)
            }
            forwardSeconds += monotonicSeconds() - started
            for (position, (slot, answers)) in zip(first..., zip(batch, answered)) {
                try deliver(position, slot, try answers.get())
            }
            try afterEachBatch()
        }
        statistics.forwardSeconds = forwardSeconds
        statistics.forwardPasses = forwardPasses
        return statistics
    }
}
