#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// Buffered reads from a file descriptor (read(2)), for inputs that arrive
/// as a stream: lists of paths and concatenated images on standard input.
/// It never reads more than it is asked for beyond one 64 KiB buffer.
struct ByteReader {
    let descriptor: Int32
    /// How the stream is named in errors ("standard input", a list's path).
    let name: String
    private var buffer: [UInt8] = []
    private var start = 0
    private(set) var atEnd = false

    init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
    }

    /// A stream that is `bytes` and ends there, for reading in memory what
    /// arrived as a stream.
    init(bytes: [UInt8], name: String) {
        self.init(descriptor: -1, name: name)
        buffer = bytes
        atEnd = true
    }

    /// Bytes buffered and not yet consumed.
    var buffered: ArraySlice<UInt8> { buffer[start...] }

    /// Reads once more into the buffer; false at the end of the stream.
    mutating func fill() throws(DigitError) -> Bool {
        guard !atEnd else { return false }
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ReadFailure.error(errno, reading: name)
            }
            if count == 0 {
                atEnd = true
                return false
            }
            buffer.append(contentsOf: chunk[0..<count])
            return true
        }
    }

    /// Exactly `count` bytes, fewer only at the end of the stream.
    mutating func take(upTo count: Int) throws(DigitError) -> [UInt8] {
        while buffer.count - start < count, try fill() {}
        let taken = min(count, buffer.count - start)
        defer { start += taken }
        return Array(buffer[start..<(start + taken)])
    }

    /// The next `count` bytes (fewer only at the end of the stream), left unread.
    mutating func peek(upTo count: Int) throws(DigitError) -> ArraySlice<UInt8> {
        while buffer.count - start < count, try fill() {}
        return buffer[start..<min(buffer.count, start + count)]
    }

    /// The next byte, consumed; nil at the end of the stream.
    mutating func nextByte() throws(DigitError) -> UInt8? {
        if start == buffer.count, try !fill() { return nil }
        defer { start += 1 }
        return buffer[start]
    }

    /// Consumes `count` buffered bytes.
    mutating func consume(_ count: Int) {
        start += min(count, buffer.count - start)
    }
}

extension ByteReader {
    /// Consumes `count` bytes without keeping them (a video frame's chroma
    /// planes); returns how many there were, fewer only at the end of the stream.
    mutating func discard(_ count: Int) throws(DigitError) -> Int {
        var left = count
        while left > 0 {
            let available = buffered.count
            if available == 0, try !fill() { break }
            let step = min(left, buffered.count)
            consume(step)
            left -= step
        }
        return count - left
    }
}
