import DigitKit
import Testing

/// Forward passes in which a failure costs only the group it belongs to.
@Suite("Isolated forward passes")
struct IsolatedForwardTests {
    /// A tensor told apart by its first value.
    static func tensor(_ mark: Float) throws -> DigitTensor {
        try DigitTensor(values: [mark] + [Float](repeating: 0, count: 783))
    }

    struct Refused: Error, Equatable {}

    @Test("one call for every group while it succeeds; each group gets its own answers, an empty group none")
    func oneCall() throws {
        var calls: [[Float]] = []
        let groups = [[try Self.tensor(1)], [], [try Self.tensor(2), try Self.tensor(3)]]
        let answers = IsolatedForward.run(groups) { tensors in
            calls.append(tensors.map { $0.values[0] })
            return tensors.map { $0.values[0] * 10 }
        }
        #expect(calls == [[1, 2, 3]])
        #expect(try answers.map { Array(try $0.get()) } == [[10], [], [20, 30]])
    }

    @Test("where the call for all fails, each group is forwarded alone: the failing group gets the error, the others their answers")
    func failureIsolated() throws {
        var calls: [[Float]] = []
        let groups = [[try Self.tensor(1)], [try Self.tensor(2), try Self.tensor(3)], [], [try Self.tensor(4)]]
        let answers = IsolatedForward.run(groups) { tensors in
            calls.append(tensors.map { $0.values[0] })
            if tensors.contains(where: { $0.values[0] == 3 }) { throw Refused() }
            return tensors.map { $0.values[0] * 10 }
        }
        #expect(calls == [[1, 2, 3, 4], [1], [2, 3], [4]])
        #expect(try Array(answers[0].get()) == [10])
        #expect(throws: Refused.self) { try answers[1].get() }
        #expect(try answers[2].get().isEmpty)
        #expect(try Array(answers[3].get()) == [40])
    }

    @Test("until the first failure: the groups after the first that fails alone are not forwarded and get its error")
    func untilFirstFailure() throws {
        var calls: [[Float]] = []
        let groups = [[try Self.tensor(1)], [try Self.tensor(2), try Self.tensor(3)], [], [try Self.tensor(4)]]
        let answers = IsolatedForward.run(groups, untilFirstFailure: true) { tensors in
            calls.append(tensors.map { $0.values[0] })
            if tensors.contains(where: { $0.values[0] == 3 }) { throw Refused() }
            return tensors.map { $0.values[0] * 10 }
        }
        #expect(calls == [[1, 2, 3, 4], [1], [2, 3]])
        #expect(try Array(answers[0].get()) == [10])
        #expect(throws: Refused.self) { try answers[1].get() }
        #expect(try answers[2].get().isEmpty)
        #expect(throws: Refused.self) { try answers[3].get() }
    }

    @Test("a single group that fails is not forwarded again; no tensors at all, no call")
    func nothingToRetry() throws {
        var calls = 0
        let failed = IsolatedForward.run([[], [try Self.tensor(1), try Self.tensor(2)]]) { (_: [DigitTensor]) throws -> [Int] in
            calls += 1
            throw Refused()
        }
        #expect(calls == 1)
        #expect(try failed[0].get().isEmpty)
        #expect(throws: Refused.self) { try failed[1].get() }
        let none = IsolatedForward.run([[], []]) { (_: [DigitTensor]) throws -> [Int] in
            calls += 1
            return []
        }
        #expect(calls == 1 && none.count == 2)
    }
}
