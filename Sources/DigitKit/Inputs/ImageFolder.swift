#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// Every image file in a folder and the folders below it (`--recursive`),
/// recognized by its content (ImageFormat.detect on its first bytes), in a
/// fixed order: each folder's entries sorted by the bytes of their names
/// (as `LC_ALL=C sort` does), sub-folders visited where they sort. Folders
/// are listed one at a time as the walk reaches them, so a large tree is
/// never held in memory at once.
///
/// Symbolic links to files are followed; links to folders are not, so a
/// link cannot make the walk loop. Other files (text, other formats) are
/// skipped silently. A folder that cannot be listed gives one failed input
/// naming it, and the walk goes on.
public struct ImageFolder: Sequence, IteratorProtocol {
    /// Folders still to list, and the sorted entries of those being walked.
    private var pending: [[String]]
    private var started = false
    private let root: String

    /// The images under the folder at `path`; nothing is read until the first
    /// `next()`, which reports a folder that cannot be listed as a failed input.
    public init(path: String) {
        self.root = path
        self.pending = []
    }

    /// The next image file, as an input named by its path; a folder that cannot
    /// be listed gives a failed input naming it. Nil once the walk is done.
    public mutating func next() -> ClassificationInput? {
        if !started {
            started = true
            if let failure = enter(root) { return failure }
        }
        while !pending.isEmpty {
            guard let path = pending[pending.count - 1].popLast() else {
                pending.removeLast()
                continue
            }
            switch Self.kind(of: path) {
            case .folder:
                if let failure = enter(path) { return failure }
            case .file:
                if Self.isImage(path) { return .file(path) }
            case .other:
                continue
            }
        }
        return nil
    }

    /// Lists `folder` onto the stack (entries reversed, so popLast yields
    /// them in order); a failed input if it cannot be listed.
    private mutating func enter(_ folder: String) -> ClassificationInput? {
        guard let directory = opendir(folder) else {
            let error = OpenFailure.error(errno)
            return ClassificationInput(source: .failure(DigitError(error.code, "cannot list folder: \(error.message)")), origin: InputOrigin(name: folder))
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        pending.append(names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.reversed().map { prefix + $0 })
        return nil
    }

    private enum Kind { case folder, file, other }

    /// A real folder (not a link to one), a file (or a link to one), or anything else.
    private static func kind(of path: String) -> Kind {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .other }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .folder
        case S_IFREG: return .file
        case S_IFLNK:
            guard stat(path, &info) == 0 else { return .other }
            return info.st_mode & S_IFMT == S_IFREG ? .file : .other
        default: return .other
        }
    }

    /// Whether the file starts with the signature of a supported image format.
    /// A file that cannot be read is kept, so that its error is reported.
    static func isImage(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return true }
        defer { close(descriptor) }
        var head = [UInt8](repeating: 0, count: ImageFormat.signatureLength)
        let count = head.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count >= 0 else { return true }
        return ImageFormat.detect(head[0..<count]) != nil
    }
}
