import NIOConcurrencyHelpers

/// Runs `work` (a request's upload and the work on it) and throws
/// `APIError.deadlineExceeded` (408) as soon as it takes longer than
/// `deadline`; a slow upload is cut there. The work is cancelled then (work
/// a worker thread has begun ends first, and holds its admission until it
/// does); the answer does not wait for it.
func withDeadline<T: Sendable>(_ deadline: Duration, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
    let race = DeadlineRace<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            race.start(continuation, deadline: deadline, work: work)
        }
    } onCancel: {
        race.finish(.failure(CancellationError()))
    }
}

/// The work and the deadline's timer, each in a task of its own; whichever
/// ends first resumes the caller, once, and cancels the other.
private final class DeadlineRace<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var tasks: [Task<Void, Never>] = []
        var finished = false
    }
    private let state = NIOLockedValueBox(State())

    func start(_ continuation: CheckedContinuation<T, any Error>, deadline: Duration, work: @escaping @Sendable () async throws -> T) {
        let cancelledEarly = state.withLockedValue { state in
            if state.finished { return true }
            state.continuation = continuation
            return false
        }
        if cancelledEarly {
            continuation.resume(throwing: CancellationError())
            return
        }
        let worker = Task {
            do { finish(.success(try await work())) } catch { finish(.failure(error)) }
        }
        let timer = Task {
            guard (try? await Task.sleep(for: deadline)) != nil else { return }
            finish(.failure(APIError.deadlineExceeded(deadline)))
        }
        let finishedMeanwhile = state.withLockedValue { state in
            if state.finished { return true }
            state.tasks = [worker, timer]
            return false
        }
        if finishedMeanwhile {
            worker.cancel()
            timer.cancel()
        }
    }

    func finish(_ result: Result<T, any Error>) {
        let (continuation, tasks) = state.withLockedValue { state -> (CheckedContinuation<T, any Error>?, [Task<Void, Never>]) in
            guard !state.finished else { return (nil, []) }
            state.finished = true
            defer { state.continuation = nil }
            return (state.continuation, state.tasks)
        }
        for task in tasks { task.cancel() }
        continuation?.resume(with: result)
    }
}
