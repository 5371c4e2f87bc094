#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// The paths of a list file (`--files-from`), one per line or NUL-separated,
/// read as they are needed, so that a list of millions of paths is never
/// held in memory. Empty entries are skipped; in line mode a trailing "\r"
/// (a list written on Windows) is dropped. Paths are taken as UTF-8.
public struct FileList: Sequence, IteratorProtocol {
    /// How entries are separated.
    public enum Separator: Sendable {
        /// Line feeds, one path a line; a "\r" before one is dropped.
        case newline
        /// NUL bytes, as `find -print0` writes them, for names that hold newlines.
        case nul
    }

    /// The longest entry accepted: far over any PATH_MAX, short of a runaway list.
    public static let maxEntryBytes = 1 << 16

    private var reader: ByteReader?
    private var failure: DigitError?
    private let listName: String
    private let separator: UInt8
    private var finished = false

    /// The list at `path` ("-" for standard input).
    public init(path: String, separator: Separator) {
        self.listName = path
        self.separator = separator == .nul ? 0 : UInt8(ascii: "\n")
        if path == "-" {
            reader = ByteReader(descriptor: STDIN_FILENO, name: "standard input")
            return
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            failure = OpenFailure.error(errno).about(path)
        } else {
            reader = ByteReader(descriptor: descriptor, name: path)
        }
    }

    /// The next file as an input; a list that cannot be read gives one
    /// failed input naming the list, and ends.
    public mutating func next() -> ClassificationInput? {
        guard !finished else { return nil }
        if let failure {
            finished = true
            return ClassificationInput(source: .failure(failure), origin: InputOrigin(name: listName))
        }
        do throws(DigitError) {
            while let entry = try nextEntry() {
                if !entry.isEmpty { return .file(entry) }
            }
        } catch {
            finished = true
            closeList()
            return ClassificationInput(source: .failure(error.about(listName)), origin: InputOrigin(name: listName))
        }
        finished = true
        closeList()
        return nil
    }

    /// The next entry's text, nil at the end of the list.
    private mutating func nextEntry() throws(DigitError) -> String? {
        guard var reader else { return nil }
        defer { self.reader = reader }
        var searched = 0
        while true {
            let buffered = reader.buffered
            if let end = buffered.dropFirst(searched).firstIndex(of: separator) {
                var entry = buffered[buffered.startIndex..<end]
                reader.consume(end - buffered.startIndex + 1)
                if separator != 0, entry.last == UInt8(ascii: "\r") { entry = entry.dropLast() }
                return String(decoding: entry, as: UTF8.self)
            }
            searched = buffered.count
            guard searched <= Self.maxEntryBytes else {
                throw DigitError(.invalidArgument, "a list entry is longer than \(Self.maxEntryBytes) bytes")
            }
            if try !reader.fill() {
                let rest = reader.buffered
                reader.consume(rest.count)
                return rest.isEmpty ? nil : String(decoding: rest, as: UTF8.self)
            }
        }
    }

    private mutating func closeList() {
        if let reader, reader.descriptor != STDIN_FILENO { close(reader.descriptor) }
        reader = nil
    }
}
