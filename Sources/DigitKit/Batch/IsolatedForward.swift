/// Forward passes over the tensors of many pictures or requests at once, in
/// which a failure costs only the group it belongs to: a large batch can fail
/// where its pictures alone succeed (its memory, one picture a model breaks
/// on), and the others in it should not pay for that.
package enum IsolatedForward {
    /// Each group's answers from `forward`, in order: one call with every
    /// group's tensors, or, if that call throws, one call per group, each
    /// group with its own answers or its own error. A group without tensors
    /// has no answers and never fails. With `untilFirstFailure`, for a caller
    /// that stops at the first failure, the groups after it are not forwarded
    /// and get its error.
    package static func run<Answer>(_ groups: [[DigitTensor]], untilFirstFailure: Bool = false,
                                    forward: ([DigitTensor]) throws -> [Answer]) -> [Result<ArraySlice<Answer>, any Error>] {
        let all = groups.flatMap { $0 }
        guard !all.isEmpty else { return groups.map { _ in .success([]) } }
        let answers: [Answer]
        do {
            answers = try forward(all)
        } catch {
            // One group alone would only fail again.
            let asking = groups.filter { !$0.isEmpty }.count
            var failed: (any Error)? = asking == 1 ? error : nil
            return groups.map { group in
                if group.isEmpty { return .success([]) }
                if let failed, asking == 1 || untilFirstFailure { return .failure(failed) }
                let answer = Result { ArraySlice(try forward(group)) }
                if case .failure(let error) = answer { failed = error }
                return answer
            }
        }
        precondition(answers.count == all.count, "forward gave \(answers.count) answers for \(all.count) tensors")
        var offset = 0
        return groups.map { group in
            defer { offset += group.count }
            return .success(answers[offset..<(offset + group.count)])
        }
    }
}
