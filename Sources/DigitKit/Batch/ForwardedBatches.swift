extension BatchRun {
    /// Runs the batches through one model: the tensors every slot of a batch
    /// asks about go to `forward` in one call, on the calling thread; then
    /// `deliver` gets each slot, in input order, with its own predictions,
    /// and `afterEachBatch` is called. The statistics count the forward
    /// passes as `passes` says one call of `forward` makes. An error from
    /// any of them stops the workers and is rethrown; the results delivered
    /// before it stand. `whileStarting`: as in `runBatches`.
    func runForwarding(whileStarting: () throws -> Void = {},
                       tensors: (Prepared) -> [DigitTensor],
                       forward: ([DigitTensor]) throws -> [Prediction],
                       passes: (_ tensorCount: Int) -> Int = { _ in 1 },
                       deliver: (_ position: Int, Slot, ArraySlice<Prediction>) throws -> Void,
                       afterEachBatch: () throws -> Void) throws -> BatchStatistics {
        var forwardSeconds = 0.0, forwardPasses = 0
        var statistics = try runBatches(whileStarting: whileStarting) { first, batch in
            let asked = batch.map { tensors($0.prepared) }
            let all = asked.flatMap { $0 }
            var predictions: [Prediction] = []
            if !all.isEmpty {
                let started = monotonicSeconds()
                predictions = try forward(all)
                forwardSeconds += monotonicSeconds() - started
                forwardPasses += passes(all.count)
            }
            var offset = 0
            for (position, (slot, own)) in zip(first..., zip(batch, asked)) {
                try deliver(position, slot, predictions[offset..<(offset + own.count)])
                offset += own.count
            }
            try afterEachBatch()
        }
        statistics.forwardSeconds = forwardSeconds
        statistics.forwardPasses = forwardPasses
        return statistics
    }
}
