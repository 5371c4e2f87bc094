#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// The one-line cause for an open(2) or opendir(3) that failed with `code`
/// ("no such file", "permission denied"), the same for every input.
public enum OpenFailure {
    public static func error(_ code: Int32) -> DigitError {
        switch code {
        case ENOENT, ENOTDIR: return DigitError(.fileNotFound, "no such file")
        case EACCES, EPERM: return DigitError(.unreadableFile, "permission denied")
        case ELOOP: return DigitError(.unreadableFile, "too many levels of symbolic links")
        case ENAMETOOLONG: return DigitError(.unreadableFile, "name too long")
        default: return DigitError(.unreadableFile, "cannot open: \(InputReader.describe(code))")
        }
    }

    /// The cause for opening `path` for reading: a socket cannot be opened
    /// at all (ENXIO), and is named as what it is.
    static func error(_ code: Int32, path: InputPath) -> DigitError {
        if code == ENXIO, let info = SystemPath.status(path), let kind = FileKind.irregular(info.st_mode) {
            return DigitError(.unreadableFile, "not a regular file (\(kind))")
        }
        return error(code)
    }
}
