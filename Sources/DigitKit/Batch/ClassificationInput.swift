/// One picture to classify in a batch run, and where it came from.
public struct ClassificationInput: Sendable {
    /// Where the picture's data is.
    public enum Source: Sendable {
        /// A file, read and decoded by a worker thread.
        case file(path: InputPath)
        /// An encoded image already in memory (one of several on standard input, say).
        case bytes([UInt8])
        /// A decoded picture.
        case image(GrayImage)
        /// An input that could not even be read (a broken stream, say): its
        /// result is this error.
        case failure(DigitError)
    }

    /// Where the picture's data is: a file, bytes, a decoded picture, or an error.
    public let source: Source
    /// How the result and its errors name the input.
    public let origin: InputOrigin

    /// An input from `source`, named by `origin`; nothing is read or checked here.
    public init(source: Source, origin: InputOrigin) {
        self.source = source
        self.origin = origin
    }

    /// The file at `path`, named by its path.
    public static func file(_ path: String) -> ClassificationInput {
        file(InputPath(path))
    }

    /// The file at `path`, given as bytes, named by its path.
    public static func file(_ path: InputPath) -> ClassificationInput {
        ClassificationInput(source: .file(path: path), origin: InputOrigin(path: path))
    }

    /// A decoded picture, named `name`.
    public static func image(_ image: GrayImage, name: String) -> ClassificationInput {
        ClassificationInput(source: .image(image), origin: InputOrigin(name: name))
    }

    /// Encoded image bytes, named `name` (and `indexInSource` when the source holds several).
    public static func bytes(_ bytes: [UInt8], name: String, indexInSource: Int? = nil) -> ClassificationInput {
        ClassificationInput(source: .bytes(bytes), origin: InputOrigin(name: name, indexInSource: indexInSource))
    }

    /// The picture, decoded by `decoder` when it is a file or bytes; a
    /// worker's first step in every batch run. Errors are about the input's
    /// label.
    public func decoded(with decoder: ImageDecoder) throws(DigitError) -> GrayImage {
        do throws(DigitError) {
            switch source {
            case .file(let path): return try decoder.decode(file: path)
            case .bytes(let bytes): return try decoder.decode(bytes: bytes)
            case .image(let given): return given
            case .failure(let error): throw error
            }
        } catch {
            throw error.about(origin.label)
        }
    }
}
