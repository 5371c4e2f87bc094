/// One of N deterministic parts of a sequence of inputs (`--shard I/N`):
/// the inputs at positions I, I + N, I + 2N, ... (0-based), so that N
/// processes given the same inputs share them without overlap or gap, and
/// large and small files spread evenly over the parts.
public struct InputShard: Sendable, Equatable {
    /// Which part this is, 0-based: I in `--shard I/N`, below `count`.
    public let index: Int
    /// How many parts the inputs are split into: N in `--shard I/N`, at least 1.
    public let count: Int

    /// Shard `index` of `count`: 0 <= index < count.
    public init(index: Int, count: Int) throws(DigitError) {
        guard count >= 1, (0..<count).contains(index) else {
            throw DigitError(.invalidArgument, "a shard is I/N with 0 <= I < N, got \(index)/\(count)")
        }
        self.index = index
        self.count = count
    }

    /// Parses "I/N".
    public init(parsing text: String) throws(DigitError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw DigitError(.invalidArgument, "a shard is I/N (for example 0/4), got \"\(text)\"")
        }
        try self.init(index: index, count: count)
    }

    /// Whether the input at `position` of the whole sequence belongs to this shard.
    public func contains(position: Int) -> Bool {
        position % count == index
    }

    /// The elements of `inputs` in this shard, lazily.
    public func select<Inputs: Sequence>(_ inputs: Inputs) -> some Sequence<Inputs.Element> {
        inputs.lazy.enumerated().filter { contains(position: $0.offset) }.map(\.element)
    }

    /// This shard's inputs among `inputs`, lazily, as `select` takes them,
    /// but for an input that failed before any picture was read (a list or a
    /// folder that cannot be read, a folder given without --recursive): that
    /// one is in every shard and takes no position, so that every process of
    /// a sharded run reports it instead of one failing and the rest exiting 0.
    public func selectPictures<Inputs: Sequence<ClassificationInput>>(_ inputs: Inputs) -> some Sequence<ClassificationInput> {
        sequence(state: (inputs: inputs.makeIterator(), position: 0)) { state in
            while let input = state.inputs.next() {
                if case .failure = input.source { return input }
                defer { state.position += 1 }
                if contains(position: state.position) { return input }
            }
            return nil
        }
    }
}
