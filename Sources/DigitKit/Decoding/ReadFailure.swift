#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// The one-line cause for a read(2) that failed with `code`.
enum ReadFailure {
    /// `name` is what was read ("standard input", a path). Reading a closed
    /// standard input (`<&-`) fails with EBADF, which says that plainly.
    static func error(_ code: Int32, reading name: String) -> DigitError {
        if code == EBADF && name == "standard input" { return DigitError(.unreadableFile, "standard input is closed") }
        return DigitError(.unreadableFile, "cannot read \(name): \(InputReader.describe(code))")
    }
}
