internal import CLibDeflate

/// The CRC-32 a PNG chunk carries over its type and data (ISO 3309, the
/// same as zlib's), computed with libdeflate_crc32, which folds many bytes
/// a step: the fast path checks every image data byte, as libpng does.
enum ChunkChecksum {
    /// Whether `chunk` (found by PNGChunks, so within `png`) carries the
    /// right CRC over its type and data.
    static func holds(_ png: UnsafeRawBufferPointer, _ chunk: PNGChunk) -> Bool {
        let covered = UnsafeRawBufferPointer(rebasing: png[(chunk.start + 4)..<chunk.data.upperBound])
        let computed = libdeflate_crc32(0, covered.baseAddress, covered.count)
        return computed == PNGFastPath.bigEndian(png, at: chunk.data.upperBound)
    }
}
