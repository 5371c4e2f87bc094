internal import CLibDeflate

/// The CRC-32 a PNG chunk carries over its type and data (ISO 3309, the
/// same as zlib's), computed with libdeflate_crc32, which folds many bytes
/// a step: the fast path checks every image data byte, as libpng does.
enum ChunkChecksum {
    /// Whether the chunk whose length field starts at `position` in `png`
    /// (length, type, `length` data bytes, then the CRC) carries the right
    /// CRC. The caller has checked that the whole chunk lies within `png`.
    static func holds(_ png: UnsafeRawBufferPointer, chunkAt position: Int, length: Int) -> Bool {
        let covered = UnsafeRawBufferPointer(rebasing: png[(position + 4)..<(position + 8 + length)])
        let computed = libdeflate_crc32(0, covered.baseAddress, covered.count)
        return computed == PNGFastPath.bigEndian(png, at: position + 8 + length)
    }
}
