/// Forward passes over the tensors of many pictures (or requests) at once,
/// in which a failure costs only the pictures it belongs to: where the pass
/// over all of them fails, each group is forwarded again on its own. A large
/// batch can fail where its parts succeed (its memory, a model that breaks
/// on one picture), and a batch is made of other people's pictures as much
/// as of the failing one.
package enum IsolatedForward {
    /// Each group's answers from `forward`, in order: one call with every
    /// group's tensors, or, if that call throws, one call per group, each
    /// group with its own answers or its own error. A group without tensors
    /// has no answers and never fails.
    package static func run<Answer>(_ groups: [[DigitTensor]],
                                    forward: ([DigitTensor]) throws -> [Answer]) -> [Result<ArraySlice<Answer>, any Error>] {
        let all = groups.flatMap { $0 }
        guard !all.isEmpty else { return groups.map { _ in .success([]) } }
        let answers: [Answer]
        do {
            answers = try forward(all)
        } catch {
            // One group alone would only fail again.
            let asking = groups.filter { !$0.isEmpty }.count
            return groups.map { group in
                if group.isEmpty { return .success([]) }
                if asking == 1 { return .failure(error) }
                return Result { ArraySlice(try forward(group)) }
            }
        }
        var offset = 0
        return groups.map { group in
            defer { offset += group.count }
            return .success(answers[offset..<(offset + group.count)])
        }
    }
}
