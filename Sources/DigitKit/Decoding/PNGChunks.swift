/// The chunks of a PNG stream, in order, after its signature: the one walk
/// of PNG's container that every reader of it (PNGStructure, PNGFastPath,
/// ColorManagementChunks, ExifLocator, StreamedImageExtent) goes through.
///
/// A chunk is a big-endian 32-bit data length, a 4-byte type, the data and
/// a 4-byte CRC. One bounds rule holds for every chunk yielded: its length
/// is at most 2^31 - 1, as the PNG specification allows, and the whole
/// chunk, CRC included, lies within the bytes. The walk ends after IEND
/// (bytes after it are not chunks) or at the first chunk that breaks the
/// rule; `stop` then says how, and how many more bytes a cut-off stream
/// needs to go on. Positions only move forward, by at least 12 bytes a chunk.
struct PNGChunks<Bytes: RandomAccessCollection>: Sequence, IteratorProtocol where Bytes.Element == UInt8, Bytes.Index == Int {
    let bytes: Bytes
    /// Where the next chunk's length field starts.
    private(set) var position: Int
    /// Why the walk stopped before IEND; nil while it goes on or after IEND.
    private(set) var stop: PNGChunkStop?
    private var ended = false

    /// The chunks of `bytes` from `position` on (by default just after the signature).
    init(_ bytes: Bytes, from position: Int? = nil) {
        self.bytes = bytes
        self.position = position ?? bytes.startIndex + ImageFormat.pngSignature.count
    }

    mutating func next() -> PNGChunk? {
        guard !ended else { return nil }
        switch Self.chunk(in: bytes, at: position) {
        case .success(let chunk):
            position = chunk.end
            ended = chunk.type == .IEND
            return chunk
        case .failure(let stop):
            self.stop = stop
            ended = true
            return nil
        }
    }

    /// The chunk whose length field starts at `position` in `bytes`, or why
    /// there is none: the bounds rule of every walk. For a reader that
    /// fetches bytes as it goes (StreamedImageExtent) as well as the iterator.
    static func chunk(in bytes: Bytes, at position: Int) -> Result<PNGChunk, PNGChunkStop> {
        let available = bytes.endIndex - position
        guard available >= 8 else { return .failure(.cutOffHeader(missing: 8 - available)) }
        let length = Int(bytes[position]) << 24 | Int(bytes[position + 1]) << 16 | Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
        let type = PNGChunkType(bytes[position + 4], bytes[position + 5], bytes[position + 6], bytes[position + 7])
        guard length <= Int(Int32.max) else { return .failure(.oversized(type, length: length)) }
        guard 12 + length <= available else { return .failure(.cutOffChunk(type, missing: 12 + length - available)) }
        return .success(PNGChunk(type: type, start: position, data: (position + 8)..<(position + 8 + length)))
    }
}

/// One chunk of a PNG stream, as PNGChunks finds it within the bytes.
struct PNGChunk: Equatable {
    let type: PNGChunkType
    /// Where its length field starts.
    let start: Int
    /// Where its data lies; the CRC follows.
    let data: Range<Int>

    /// Just after its CRC: where the next chunk starts.
    var end: Int { data.upperBound + 4 }
}

/// Why there is no whole chunk where a walk of PNG chunks stands.
enum PNGChunkStop: Error, Equatable {
    /// The bytes end before a whole chunk header (length and type):
    /// `missing` more bytes would complete it.
    case cutOffHeader(missing: Int)
    /// The bytes end inside the data or CRC of a chunk of `type`.
    case cutOffChunk(PNGChunkType, missing: Int)
    /// A chunk of `type` claims a length over 2^31 - 1, which no PNG has.
    case oversized(PNGChunkType, length: Int)
}

/// A PNG chunk type: four bytes, which are letters in a valid chunk.
struct PNGChunkType: Equatable {
    let bytes: (UInt8, UInt8, UInt8, UInt8)

    init(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) { bytes = (a, b, c, d) }

    init(_ name: StaticString) {
        precondition(name.utf8CodeUnitCount == 4)
        let p = name.utf8Start
        self.init(p[0], p[1], p[2], p[3])
    }

    static let IHDR = PNGChunkType("IHDR"), PLTE = PNGChunkType("PLTE")
    static let IDAT = PNGChunkType("IDAT"), IEND = PNGChunkType("IEND")
    static let tRNS = PNGChunkType("tRNS"), eXIf = PNGChunkType("eXIf")

    static func == (lhs: PNGChunkType, rhs: PNGChunkType) -> Bool { lhs.bytes == rhs.bytes }

    var array: [UInt8] { [bytes.0, bytes.1, bytes.2, bytes.3] }

    /// Whether all four bytes are ASCII letters, as the specification requires.
    var isLetters: Bool {
        func isLetter(_ byte: UInt8) -> Bool { (65...90).contains(byte) || (97...122).contains(byte) }
        return isLetter(bytes.0) && isLetter(bytes.1) && isLetter(bytes.2) && isLetter(bytes.3)
    }

    /// Critical chunks start with an upper-case letter.
    var isCritical: Bool { bytes.0 < 97 }

    /// How a message names the chunk ("the IDAT chunk"); only made for a message.
    var chunkName: String {
        isLetters ? "the \(String(decoding: array, as: UTF8.self)) chunk" : "a chunk with an invalid type"
    }
}
