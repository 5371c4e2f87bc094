#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// Reads a whole input file, or standard input for "-", into memory, with a
/// byte ceiling checked before and during the read so that no input can make
/// it allocate without bound.
enum InputReader {
    /// The first read of standard input, whose size is not known beforehand.
    static let chunkSize = 1 << 16

    /// Reads the file at `path` ("-" for standard input) and decodes its
    /// bytes with `decode`; every error, reading or decoding, names `path`
    /// as it is shown (InputPath.description).
    static func decodeFile<Image>(at path: InputPath, maxBytes: Int,
                                  _ decode: ([UInt8]) throws(DigitError) -> Image) throws(DigitError) -> Image {
        do throws(DigitError) {
            return try decode(try read(path: path, maxBytes: maxBytes))
        } catch {
            throw error.about(path.description)
        }
    }

    /// The whole file at `path`, or standard input for "-". Only a regular
    /// file is read: the file is opened without blocking (a FIFO with no
    /// writer would hold open(2) forever) and anything else is refused.
    static func read(path: InputPath, maxBytes: Int) throws(DigitError) -> [UInt8] {
        if path.isStandardInput {
            return try readAll(descriptor: STDIN_FILENO, name: "standard input", maxBytes: maxBytes, expectedBytes: chunkSize)
        }
        let descriptor = SystemPath.open(path, O_RDONLY | O_NONBLOCK)
        guard descriptor >= 0 else { throw OpenFailure.error(errno, path: path) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw DigitError(.unreadableFile, "cannot read: \(describe(errno))")
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw DigitError(.unreadableFile, "is a folder, not an image")
        }
        if let kind = FileKind.irregular(info.st_mode) {
            throw DigitError(.unreadableFile, "not a regular file (\(kind))")
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        if Int(info.st_size) > maxBytes {
            throw DigitError(.imageTooLarge, "file is \(info.st_size) bytes, over the limit of \(maxBytes) bytes")
        }
        return try readAll(descriptor: descriptor, name: "file", maxBytes: maxBytes, expectedBytes: Int(info.st_size))
    }

    /// Reads to the end of `descriptor`. The first read goes straight into an
    /// array of the expected size plus one byte (the extra byte shows the end
    /// without another buffer), so a regular file costs one allocation and no
    /// copies: growing an array chunk by chunk copied a 300 KB file about
    /// three times and faulted in every new buffer. Input that turns out
    /// longer (a pipe, a file growing as it is read) goes on in chunks.
    private static func readAll(descriptor: Int32, name: String, maxBytes: Int, expectedBytes: Int) throws(DigitError) -> [UInt8] {
        var outcome = FillOutcome()
        var bytes = [UInt8](unsafeUninitializedCapacity: min(max(expectedBytes, 0), maxBytes) + 1) { buffer, initialized in
            outcome = fill(UnsafeMutableRawBufferPointer(buffer), from: descriptor)
            initialized = outcome.count
        }
        var chunk: [UInt8] = []
        while true {
            if outcome.failure != 0 {
                throw ReadFailure.error(outcome.failure, reading: name)
            }
            // The first read stops at maxBytes + 1 bytes, and each later one
            // is checked before it is kept: the array never holds more.
            guard bytes.count <= maxBytes else {
                throw DigitError(.imageTooLarge, "\(name) is larger than the limit of \(maxBytes) bytes")
            }
            if outcome.ended { return bytes }
            if chunk.isEmpty { chunk = [UInt8](repeating: 0, count: chunkSize) }
            outcome = chunk.withUnsafeMutableBytes { fill($0, from: descriptor) }
            guard bytes.count + outcome.count <= maxBytes else {
                throw DigitError(.imageTooLarge, "\(name) is larger than the limit of \(maxBytes) bytes")
            }
            bytes.append(contentsOf: chunk[0..<outcome.count])
        }
    }

    /// What `fill` read: `count` bytes, whether the input ended, and the errno of a failed read (0 for none).
    private struct FillOutcome {
        var count = 0
        var ended = false
        var failure: Int32 = 0
    }

    /// Reads into `buffer` until it is full, the input ends or a read fails
    /// (retrying reads interrupted by a signal).
    private static func fill(_ buffer: UnsafeMutableRawBufferPointer, from descriptor: Int32) -> FillOutcome {
        var outcome = FillOutcome()
        while outcome.count < buffer.count {
            let count = systemRead(descriptor, buffer.baseAddress! + outcome.count, buffer.count - outcome.count)
            if count < 0 {
                if errno == EINTR { continue }
                outcome.failure = errno
                return outcome
            }
            if count == 0 {
                outcome.ended = true
                return outcome
            }
            outcome.count += count
        }
        return outcome
    }

    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
