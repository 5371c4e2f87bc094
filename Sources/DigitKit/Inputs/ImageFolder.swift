#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// Every picture file in a folder and the folders below it (`--recursive`),
/// in a fixed order: each folder's entries sorted by the bytes of their
/// names (as `LC_ALL=C sort` does), sub-folders visited where they sort.
/// Folders are listed one at a time as the walk reaches them, so a large
/// tree is never held in memory at once.
///
/// Which files are taken is FolderPicture's rule: pictures by content, in
/// any format digits reads or recognizes, and files named like pictures;
/// those digits cannot read then fail as they would by name ("a TIFF
/// image, which digits does not read; ...", "empty file"). Everything else
/// (text, a .DS_Store, a FIFO, a broken link) is left out, and counted for
/// `onFinish`.
///
/// Names are bytes from readdir(3) to open(2) (InputPath), whatever their
/// encoding, and paths longer than PATH_MAX are opened a piece at a time
/// (SystemPath), so a deep tree is walked whole. Symbolic links to files
/// are followed; links to folders are not, so a link cannot make the walk
/// loop. A folder that cannot be listed gives one failed input naming it,
/// and the walk goes on.
public struct ImageFolder: Sequence, IteratorProtocol {
    /// Files a walk left out as not pictures: how many, and the first of them.
    public struct Skipped: Sendable, Equatable {
        public var count = 0
        public var first: InputPath?
    }

    /// Folders still to list, and the sorted entries of those being walked.
    private var pending: [[[UInt8]]] = []
    private var started = false
    private var finished = false
    private let root: InputPath
    /// What the walk has left out so far.
    public private(set) var skipped = Skipped()
    private let onFinish: (@Sendable (Skipped) -> Void)?

    /// The pictures under the folder at `path`; nothing is read until the
    /// first `next()`, which reports a folder that cannot be listed as a
    /// failed input.
    public init(path: String) {
        self.init(path: InputPath(path))
    }

    /// The pictures under the folder at `path`, given as bytes; `onFinish`
    /// is told what was left out, once, when the walk is done.
    public init(path: InputPath, onFinish: (@Sendable (Skipped) -> Void)? = nil) {
        self.root = path
        self.onFinish = onFinish
    }

    /// The next picture file, as an input named by its path; a folder that
    /// cannot be listed gives a failed input naming it. Nil once the walk is done.
    public mutating func next() -> ClassificationInput? {
        if !started {
            started = true
            if let failure = enter(root.bytes) { return failure }
        }
        while !pending.isEmpty {
            guard let bytes = pending[pending.count - 1].popLast() else {
                pending.removeLast()
                continue
            }
            let path = InputPath(bytes: bytes)
            switch Self.kind(of: path) {
            case .folder:
                if let failure = enter(bytes) { return failure }
            case .file:
                if FolderPicture.isTaken(path, head: Self.head(of: path)) { return .file(path) }
                skip(path)
            case .other:
                skip(path)
            }
        }
        if !finished {
            finished = true
            onFinish?(skipped)
        }
        return nil
    }

    private mutating func skip(_ path: InputPath) {
        skipped.count += 1
        if skipped.first == nil { skipped.first = path }
    }

    /// Lists `folder` onto the stack (entries reversed, so popLast yields
    /// them in order); a failed input if it cannot be listed.
    private mutating func enter(_ folder: [UInt8]) -> ClassificationInput? {
        let descriptor = SystemPath.open(InputPath(bytes: folder), O_RDONLY | O_DIRECTORY)
        guard descriptor >= 0, let directory = fdopendir(descriptor) else {
            let error = OpenFailure.error(errno)
            if descriptor >= 0 { close(descriptor) }
            return ClassificationInput(source: .failure(DigitError(error.code, "cannot list folder: \(error.message)")),
                                       origin: InputOrigin(path: InputPath(bytes: folder)))
        }
        defer { closedir(directory) }
        var names: [[UInt8]] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name != Array(".".utf8) && name != Array("..".utf8) { names.append(name) }
        }
        let prefix = folder.last == UInt8(ascii: "/") ? folder : folder + [UInt8(ascii: "/")]
        pending.append(names.sorted { $0.lexicographicallyPrecedes($1) }.reversed().map { prefix + $0 })
        return nil
    }

    private enum Kind { case folder, file, other }

    /// A real folder (not a link to one), a regular file (or a link to
    /// one), or anything else, such as a FIFO or a broken link.
    private static func kind(of path: InputPath) -> Kind {
        guard let info = SystemPath.status(path, followingLinks: false) else { return .other }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .folder
        case S_IFREG: return .file
        case S_IFLNK:
            guard let target = SystemPath.status(path) else { return .other }
            return target.st_mode & S_IFMT == S_IFREG ? .file : .other
        default: return .other
        }
    }

    /// The first FolderPicture.headLength bytes of the file; nil when it
    /// cannot be opened or read (it is then taken, so that its error is reported).
    private static func head(of path: InputPath) -> [UInt8]? {
        let descriptor = SystemPath.open(path, O_RDONLY | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var head = [UInt8](repeating: 0, count: FolderPicture.headLength)
        var count = 0
        while count < head.count {
            let read = head.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress! + count, $0.count - count) }
            if read < 0 && errno == EINTR { continue }
            if read < 0 { return nil }
            if read == 0 { break }
            count += read
        }
        return Array(head[0..<count])
    }
}
