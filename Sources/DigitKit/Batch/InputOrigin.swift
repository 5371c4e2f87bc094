/// Where an input of a batch run came from, as its result and its errors name it.
public struct InputOrigin: Sendable, Equatable {
    /// The path as given, "-" for standard input, or the caller's own label.
    public let name: String
    /// The picture's position within a source holding several (0 for the
    /// first image on standard input); nil for a source of one picture.
    public let indexInSource: Int?

    /// An origin named `name`, with the picture's index when its source holds
    /// several; nothing is checked.
    public init(name: String, indexInSource: Int? = nil) {
        self.name = name
        self.indexInSource = indexInSource
    }

    /// "-[2]" for the third picture of standard input, the name alone otherwise:
    /// how text output and error messages name the input.
    public var label: String {
        indexInSource.map { "\(name)[\($0)]" } ?? name
    }
}
