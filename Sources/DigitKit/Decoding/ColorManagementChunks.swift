/// Makes libpng decode the sample values as stored, ignoring the file's
/// colour-management chunks (gAMA, sRGB, iCCP, cHRM), as Pillow (and so
/// torchvision pipelines) does.
///
/// libpng's simplified API always applies them: a PngSuite-style gAMA of 1.0
/// turns grey 128 into 188, and an sRGB chunk on a 16-bit file would make it
/// convert the samples to linear light. What matters for a digit is the
/// contrast the author drew, and matching the pipelines models are trained
/// with. Each such chunk is renamed to a private ancillary type (with its CRC
/// recomputed), which libpng skips as unknown; everything else is left byte
/// for byte. Without them libpng takes 8-bit samples as sRGB and 16-bit
/// samples as linear, and so passes both through unchanged.
enum ColorManagementChunks {
    static let types: [PNGChunkType] = [PNGChunkType("gAMA"), PNGChunkType("sRGB"), PNGChunkType("iCCP"), PNGChunkType("cHRM")]
    /// Private (2nd letter lower case), ancillary (1st lower case), reserved bit clear (3rd upper case).
    static let ignored: [UInt8] = Array("dgIg".utf8)

    /// Renames every colour-management chunk in a PNG stream in place. Stops quietly at
    /// the first malformed chunk header and leaves the rest for libpng to judge.
    static func neutralize(_ png: inout [UInt8]) {
        for chunk in chunksToRename(png) {
            let typeStart = chunk.start + 4
            png.replaceSubrange(typeStart..<typeStart + 4, with: ignored)
            let crc = CRC32.checksum(png[typeStart..<chunk.data.upperBound])
            png.replaceSubrange(chunk.data.upperBound..<chunk.end, with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        }
    }

    /// The colour-management chunks before the first IDAT (they must come
    /// before it), found before anything is renamed so that the walk reads
    /// the bytes as they were.
    private static func chunksToRename(_ png: [UInt8]) -> [PNGChunk] {
        var found: [PNGChunk] = []
        for chunk in PNGChunks(png) {
            if chunk.type == .IDAT { break }
            if types.contains(chunk.type) { found.append(chunk) }
        }
        return found
    }
}

/// The CRC-32 of PNG chunks (ISO 3309, polynomial 0xEDB88320).
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum<Bytes: Sequence>(_ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes { c = table[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}
