#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// open(2) and stat(2) on an InputPath of any length. A path of PATH_MAX
/// bytes or more (what a deep folder walk makes) is resolved a piece at a
/// time: each piece, up to a "/" and shorter than PATH_MAX, is opened as a
/// folder relative to the one before (openat), and the last piece relative
/// to the last folder. A single name too long for the system still fails
/// with ENAMETOOLONG.
enum SystemPath {
    /// open(2): a descriptor, or -1 with errno set.
    static func open(_ path: InputPath, _ flags: Int32) -> Int32 {
        resolving(path, failure: -1) { folder, name in openat(folder, name, flags | O_CLOEXEC) }
    }

    /// stat(2), following links (lstat(2) with `followingLinks: false`);
    /// nil with errno set when it fails.
    static func status(_ path: InputPath, followingLinks: Bool = true) -> stat? {
        resolving(path, failure: nil) { folder, name in
            var info = stat()
            return fstatat(folder, name, &info, followingLinks ? 0 : AT_SYMLINK_NOFOLLOW) == 0 ? info : nil
        }
    }

    /// `body` on a folder descriptor and a name shorter than PATH_MAX that
    /// together lead to `path`; `failure`, with errno set, when a folder on
    /// the way cannot be opened or `path` holds a NUL byte.
    private static func resolving<Result>(_ path: InputPath, failure: Result,
                                          _ body: (Int32, UnsafePointer<CChar>) -> Result) -> Result {
        let bytes = path.bytes
        guard !bytes.contains(0) else {
            errno = EINVAL
            return failure
        }
        var folder = AT_FDCWD
        var start = 0
        defer { if folder != AT_FDCWD { close(folder) } }
        while bytes.count - start >= Int(PATH_MAX) {
            let window = bytes[start..<(start + Int(PATH_MAX) - 1)]
            guard let slash = window.lastIndex(of: UInt8(ascii: "/")) else {
                errno = ENAMETOOLONG
                return failure
            }
            let next = withCString(bytes[start...slash]) { openat(folder, $0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
            guard next >= 0 else { return failure }
            if folder != AT_FDCWD { close(folder) }
            folder = next
            start = slash + 1
        }
        // "a/.../b/" split after its last slash: the last folder itself.
        let rest = start > 0 && start == bytes.count ? [UInt8(ascii: ".")][...] : bytes[start...]
        return withCString(rest) { body(folder, $0) }
    }

    /// `bytes` with a NUL after them, as C sees a string.
    private static func withCString<Result>(_ bytes: ArraySlice<UInt8>, _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        (Array(bytes) + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
        }
    }
}

extension InputPath {
    /// Whether the path leads to a folder (following links), whatever its length.
    public var isFolder: Bool {
        SystemPath.status(self).map { $0.st_mode & S_IFMT == S_IFDIR } ?? false
    }
}
