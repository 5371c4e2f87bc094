/// A TIFF block with its byte order, read by offsets relative to its start;
/// every read checks that it lies inside the block.
struct TIFFBytes {
    private let bytes: ArraySlice<UInt8>
    private let bigEndian: Bool

    /// The block, if it starts with a valid TIFF header ("II*\0" or "MM\0*").
    init?(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        switch Array(bytes.prefix(4)) {
        case [0x49, 0x49, 0x2A, 0x00]: bigEndian = false
        case [0x4D, 0x4D, 0x00, 0x2A]: bigEndian = true
        default: return nil
        }
    }

    var count: Int { bytes.count }

    func uint16(at offset: Int) -> Int? {
        guard offset >= 0, offset <= count - 2 else { return nil }
        let a = Int(bytes[bytes.startIndex + offset]), b = Int(bytes[bytes.startIndex + offset + 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    func uint32(at offset: Int) -> Int? {
        guard let first = uint16(at: offset), let second = uint16(at: offset + 2) else { return nil }
        return bigEndian ? first << 16 | second : second << 16 | first
    }
}
