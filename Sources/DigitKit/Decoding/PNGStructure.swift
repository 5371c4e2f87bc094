/// Checks a PNG stream's chunk layout before libpng decodes it, so that a
/// truncated or gutted file gets a precise message ("the file ends inside
/// the IDAT chunk") instead of libpng's "read beyond end of data", and so
/// that a file cut off after its pixel data (which libpng's simplified API
/// would accept) is refused as the truncated file it is.
enum PNGStructure {
    /// Walks the chunks from the signature to IEND: every chunk must lie
    /// within the file, an IDAT must come before IEND, and IEND must exist.
    /// Bytes after IEND are allowed (some writers append them). Returns the
    /// IDAT chunks' data lengths, summed (PNGImageDataBounds weighs them).
    @discardableResult
    static func check(_ png: [UInt8]) throws(DigitError) -> Int {
        var chunks = PNGChunks(png), sawImageData = false, imageDataLength = 0
        while let chunk = chunks.next() {
            if chunk.type == .IDAT {
                sawImageData = true
                imageDataLength += chunk.data.count
            } else if chunk.type == .IEND {
                guard sawImageData else { throw DigitError(.invalidImage, "corrupt PNG: no image data (IDAT chunk)") }
                return imageDataLength
            }
        }
        switch chunks.stop {
        case .cutOffChunk(let type, _)?:
            throw DigitError(.invalidImage, "truncated PNG: the file ends inside \(type.chunkName)")
        case .oversized(let type, let length)?:
            throw DigitError(.invalidImage, "corrupt PNG: \(type.chunkName) claims \(length) bytes")
        case .cutOffHeader?, nil:
            throw DigitError(.invalidImage, "truncated PNG: the file ends before the IEND chunk")
        }
    }
}
