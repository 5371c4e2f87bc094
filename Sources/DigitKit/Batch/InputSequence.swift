/// A sequence of inputs for a batch run, built by a `@Sendable` closure
/// that makes its iterator: the closures inside it are then nonisolated, so
/// the worker threads may run them, and the compiler checks what they
/// capture. Use it for inputs made on demand (a lazy `map` is not `Sendable`):
///
///     let inputs = InputSequence { AnyIterator(paths.lazy.map(ClassificationInput.file).makeIterator()) }
public struct InputSequence: Sequence, Sendable {
    private let makeInputs: @Sendable () -> AnyIterator<ClassificationInput>

    /// The inputs that `makeIterator` yields; it is called again for each pass
    /// over the sequence, possibly on another thread.
    public init(_ makeIterator: @escaping @Sendable () -> AnyIterator<ClassificationInput>) {
        self.makeInputs = makeIterator
    }

    /// The inputs `make(0)`, `make(1)`, ... `make(count - 1)`, made as they are taken.
    public init(count: Int, _ make: @escaping @Sendable (Int) -> ClassificationInput) {
        self.init { AnyIterator((0..<count).lazy.map(make).makeIterator()) }
    }

    /// A fresh iterator over the inputs, from the closure given to the initializer.
    public func makeIterator() -> AnyIterator<ClassificationInput> { makeInputs() }
}
