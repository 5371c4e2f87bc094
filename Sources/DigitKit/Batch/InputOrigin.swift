/// Where an input of a batch run came from, as its result and its errors name it.
public struct InputOrigin: Sendable, Equatable {
    /// The path as given, as bytes ("-" for standard input, or the caller's own label).
    public let path: InputPath
    /// The picture's position within a source holding several (0 for the
    /// first image on standard input); nil for a source of one picture.
    public let indexInSource: Int?

    /// An origin named `name`, with the picture's index when its source holds
    /// several; nothing is checked.
    public init(name: String, indexInSource: Int? = nil) {
        self.init(path: InputPath(name), indexInSource: indexInSource)
    }

    /// An origin named by the bytes of `path`, with the picture's index when
    /// its source holds several; nothing is checked.
    public init(path: InputPath, indexInSource: Int? = nil) {
        self.path = path
        self.indexInSource = indexInSource
    }

    /// The path as given when it is UTF-8 (control characters and all, as
    /// JSON escapes them); otherwise as `label` shows it.
    public var name: String {
        path.string ?? path.description
    }

    /// "-[2]" for the third picture of standard input, the path as shown
    /// otherwise (InputPath.description: one line, escaped when it holds
    /// control characters or bytes that are not UTF-8): how text output and
    /// error messages name the input.
    public var label: String {
        indexInSource.map { "\(path)[\($0)]" } ?? path.description
    }
}
