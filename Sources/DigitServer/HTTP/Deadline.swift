/// Runs `work` (a request's upload and the work on it) and throws
/// `APIError.deadlineExceeded` (408) when it takes longer than `deadline`;
/// a slow upload is cut there. Work already given to the workers finishes
/// and is dropped.
func withDeadline<T: Sendable>(_ deadline: Duration, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await work() }
        group.addTask {
            try await Task.sleep(for: deadline)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let result = first else {
            throw APIError.deadlineExceeded(deadline)
        }
        return result
    }
}
