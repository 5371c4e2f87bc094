#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// The paths of a list file (`--files-from`), one per line or NUL-separated,
/// read as they are needed, so that a list of millions of paths is never
/// held in memory. Empty entries are skipped; in line mode a trailing "\r"
/// (a list written on Windows) is dropped. Paths are taken as bytes, as the
/// system gives them (InputPath), whatever their encoding; an entry "-" is
/// the file named "-" (shown "./-"), never standard input.
///
/// An entry longer than `maxEntryBytes` is not a path: it gives one failed
/// input naming the list and the entry ("line 3 is longer than ..."), and
/// the list goes on with the next entry.
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
    private let listPath: InputPath
    private let separator: UInt8
    private var finished = false
    /// Entries read so far, empty ones included: the number of the next is this plus one.
    private var entriesRead = 0

    /// The list at `path` ("-" for standard input).
    public init(path: String, separator: Separator) {
        self.init(path: InputPath(path), separator: separator)
    }

    /// The list at `path`, given as bytes ("-" for standard input).
    public init(path: InputPath, separator: Separator) {
        self.listPath = path
        self.separator = separator == .nul ? 0 : UInt8(ascii: "\n")
        if path.isStandardInput {
            reader = ByteReader(descriptor: STDIN_FILENO, name: "standard input")
            return
        }
        let descriptor = SystemPath.open(path, O_RDONLY)
        if descriptor < 0 {
            failure = OpenFailure.error(errno).about(path.description)
        } else {
            reader = ByteReader(descriptor: descriptor, name: "the list")
        }
    }

    /// The next file as an input; a list that cannot be read gives one
    /// failed input naming the list, and ends; an entry too long to be a
    /// path gives one, and the list goes on.
    public mutating func next() -> ClassificationInput? {
        guard !finished else { return nil }
        if let failure {
            finished = true
            return failed(failure)
        }
        do throws(DigitError) {
            while let entry = try nextEntry() {
                guard let path = entry else { return failed(tooLong(entriesRead)) }
                if !path.isEmpty { return .file(Self.entryPath(path)) }
            }
        } catch {
            finished = true
            closeList()
            return failed(error.about(listPath.description))
        }
        finished = true
        closeList()
        return nil
    }

    /// A list names files: an entry "-" is the file of that name, not
    /// standard input (which may be the list itself), so it becomes "./-".
    static func entryPath(_ entry: [UInt8]) -> InputPath {
        let path = InputPath(bytes: entry)
        return path.isStandardInput ? InputPath("./-") : path
    }

    /// A failed input named by the list.
    private func failed(_ error: DigitError) -> ClassificationInput {
        ClassificationInput(source: .failure(error.about(listPath.description)), origin: InputOrigin(path: listPath))
    }

    /// "line 3 is longer than 65536 bytes", "entry 3 ..." in a NUL-separated list.
    private func tooLong(_ number: Int) -> DigitError {
        DigitError(.invalidArgument, "\(separator == 0 ? "entry" : "line") \(number) is longer than \(Self.maxEntryBytes) bytes; skipped")
    }

    /// The next entry's bytes (nil inside for one longer than
    /// `maxEntryBytes`, consumed up to its end); nil at the end of the list.
    private mutating func nextEntry() throws(DigitError) -> [UInt8]?? {
        guard var reader else { return nil }
        defer { self.reader = reader }
        var searched = 0
        while true {
            let buffered = reader.buffered
            if let end = buffered.dropFirst(searched).firstIndex(of: separator) {
                var entry = buffered[buffered.startIndex..<end]
                reader.consume(end - buffered.startIndex + 1)
                entriesRead += 1
                if separator != 0, entry.last == UInt8(ascii: "\r") { entry = entry.dropLast() }
                return .some(entry.count > Self.maxEntryBytes ? nil : Array(entry))
            }
            searched = buffered.count
            guard searched <= Self.maxEntryBytes else {
                entriesRead += 1
                try Self.skipEntry(in: &reader, separator: separator)
                return .some(nil)
            }
            if try !reader.fill() {
                let rest = reader.buffered
                reader.consume(rest.count)
                if rest.isEmpty { return nil }
                entriesRead += 1
                return .some(rest.count > Self.maxEntryBytes ? nil : Array(rest))
            }
        }
    }

    /// Consumes the rest of an entry and its separator, a buffer at a time.
    private static func skipEntry(in reader: inout ByteReader, separator: UInt8) throws(DigitError) {
        while true {
            let buffered = reader.buffered
            if let end = buffered.firstIndex(of: separator) {
                reader.consume(end - buffered.startIndex + 1)
                return
            }
            reader.consume(buffered.count)
            if try !reader.fill() { return }
        }
    }

    private mutating func closeList() {
        if let reader, reader.descriptor != STDIN_FILENO { close(reader.descriptor) }
        reader = nil
    }
}
