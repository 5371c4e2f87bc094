#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// What a file that is neither a regular file nor a folder is, in the words
/// of "not a regular file (a FIFO)": digits reads only regular files by
/// name, as a FIFO or a device may never end or never answer.
enum FileKind {
    /// "a FIFO", "a character device", ...; nil for a regular file or a folder.
    static func irregular(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG, S_IFDIR: return nil
        case S_IFIFO: return "a FIFO"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "not a file"
        }
    }
}
