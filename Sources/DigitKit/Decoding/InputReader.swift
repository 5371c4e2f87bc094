#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// Reads a whole input file, or standard input for "-", into memory, with a
/// byte ceiling checked before and during the read so that no input can make
/// it allocate without bound.
enum InputReader {
    static func read(path: String, maxBytes: Int) throws(DigitError) -> [UInt8] {
        if path == "-" {
            return try readAll(descriptor: STDIN_FILENO, name: "standard input", maxBytes: maxBytes)
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            switch code {
            case ENOENT, ENOTDIR: throw DigitError(.fileNotFound, "no such file")
            case EACCES, EPERM: throw DigitError(.unreadableFile, "permission denied")
            case ELOOP: throw DigitError(.unreadableFile, "too many levels of symbolic links")
            default: throw DigitError(.unreadableFile, "cannot open: \(describe(code))")
            }
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw DigitError(.unreadableFile, "cannot read: \(describe(errno))")
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw DigitError(.unreadableFile, "is a directory, not a PNG file")
        }
        if Int(info.st_size) > maxBytes {
            throw DigitError(.imageTooLarge, "file is \(info.st_size) bytes, over the limit of \(maxBytes) bytes")
        }
        return try readAll(descriptor: descriptor, name: "file", maxBytes: maxBytes)
    }

    private static func readAll(descriptor: Int32, name: String, maxBytes: Int) throws(DigitError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw DigitError(.unreadableFile, "cannot read \(name): \(describe(errno))")
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= maxBytes else {
                throw DigitError(.imageTooLarge, "\(name) is larger than the limit of \(maxBytes) bytes")
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
