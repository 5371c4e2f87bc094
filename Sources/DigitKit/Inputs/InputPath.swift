/// A path as the system knows it: bytes, which need not be UTF-8 and may be
/// longer than PATH_MAX. Paths from the command line, from `--files-from`
/// lists and from folder walks stay bytes all the way to open(2), so that a
/// name such as `caf\xE9.png` (Latin-1) opens as itself; only the way it is
/// shown is text (`description`, InputPathEscaping).
public struct InputPath: Sendable, Hashable, CustomStringConvertible {
    /// The path's bytes, without a terminating NUL.
    public let bytes: [UInt8]

    /// The path made of `bytes`, as they are.
    public init<Bytes: Sequence>(bytes: Bytes) where Bytes.Element == UInt8 {
        self.bytes = Array(bytes)
    }

    /// The path spelled by `string`, in UTF-8.
    public init(_ string: String) {
        self.bytes = Array(string.utf8)
    }

    /// The path as text when its bytes are UTF-8; nil when they are not.
    public var string: String? {
        String(validating: bytes, as: UTF8.self)
    }

    /// "-": standard input, for the commands that read pictures.
    public var isStandardInput: Bool { bytes == [UInt8(ascii: "-")] }

    /// How text output and error messages show the path: as it is, or in
    /// the shell's `$'...'` quoting when it holds a byte that is not UTF-8
    /// or a control character (InputPathEscaping). One line, always.
    public var description: String { escaped(keepingControlCharacters: false) }
}
