/// The one error type of DigitKit: a machine-readable `code`, a one-line
/// `message` naming the cause, and the file or model it concerns, if any.
public struct DigitError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of failure this is. The CLI maps codes to exit statuses:
    /// input codes to 1, model codes to 2.
    public enum Code: String, Sendable {
        /// An input path does not exist.
        case fileNotFound
        /// An input exists but cannot be read (a directory, no permission, an I/O error).
        case unreadableFile
        /// The bytes are not an image DigitKit can decode (PNG, JPEG or PNM), or a corrupt one.
        case invalidImage
        /// The image has more pixels than the decoder's ceiling allows.
        case imageTooLarge
        /// An MNIST IDX file is malformed: wrong magic number, dimensions, count or length.
        case invalidDataset
        /// No model file at the given or default location.
        case modelNotFound
        /// The model file cannot be loaded as TorchScript.
        case modelLoadFailed
        /// The model loads but does not map a [N, 1, 28, 28] tensor to [N, 10] scores.
        case notADigitModel
        /// A forward pass of a loaded model failed.
        case inferenceFailed
        /// libtorch ran out of memory.
        case outOfMemory
        /// An argument is out of range (for example a thread count of 0).
        case invalidArgument
        /// libtorch cannot be loaded: the bridge library (libDigitsTorchBridge.so)
        /// is not found, or it or libtorch cannot be opened.
        case runtimeUnavailable
    }

    /// What kind of failure this is, for programs and exit statuses.
    public let code: Code
    /// One line saying what went wrong, without the subject.
    public let message: String
    /// The file (or "-" for standard input) the error is about, if any.
    public let subject: String?

    /// An error of kind `code`, saying `message`, about `subject` if given;
    /// nothing is checked.
    public init(_ code: Code, _ message: String, subject: String? = nil) {
        self.code = code
        self.message = message
        self.subject = subject
    }

    /// The same error about `subject`.
    public func about(_ subject: String) -> DigitError {
        DigitError(code, message, subject: subject)
    }

    /// "subject: message", or the message alone.
    public var description: String {
        subject.map { "\($0): \(message)" } ?? message
    }
}

extension DigitError {
    /// The same error with `prefix: ` before its message (once).
    func prefixed(_ prefix: String) -> DigitError {
        message.hasPrefix(prefix + ":") ? self : DigitError(code, "\(prefix): \(message)", subject: subject)
    }
}
