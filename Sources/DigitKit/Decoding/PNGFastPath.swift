/// Decodes the commonest PNGs (8-bit grey, grey + alpha, RGB or RGBA, not
/// interlaced, no tRNS) without libpng: the image data is inflated in one
/// call by libdeflate (DeflateDecompressor), the rows unfiltered
/// (PNGScanlineFilter) and reduced to grey (GrayConversion) one at a time.
/// libpng's streaming zlib inflate was most of a photo-sized PNG's decode
/// (docs/decisions.md, "PNG without libpng").
///
/// The pixels are the ones the libpng path gives (the tests compare both
/// on PngSuite and every PNG fixture): samples as stored, colour-management
/// chunks ignored, Pillow's luma, alpha over white unless it holds the ink
/// (AlphaInk). Whatever this path does
/// not take, or takes and finds wrong in any way (a CRC, a filter type,
/// the zlib stream, too little data, a critical chunk out of place), gives
/// nil, and PNGDecoder hands the file to libpng, which decodes it or says
/// precisely what is wrong. The differences: zlib streams whose
/// back-references reach further than their header's window size inflate
/// here where zlib refuses them; image data going on beyond the picture is
/// refused here, where libpng would inflate all of it and then only warn.
enum PNGFastPath {
    /// The grey picture in `png` (whose signature and chunk layout
    /// PNGStructure has checked), or nil for libpng to decode. Nil too when
    /// the picture has more than `maxPixels` pixels, before anything of its
    /// size is allocated: libpng's path then refuses it with the message.
    /// Throws when the image data goes on beyond the picture (inflating
    /// stops at its end: what follows would only cost time) and when
    /// `budget` refuses the buffers.
    static func decode(_ png: [UInt8], maxPixels: Int,
                       budget: DecodeMemoryBudget = .shared) throws(DigitError) -> GrayImage? {
        let decoded = png.withUnsafeBytes { bytes in
            Result { () throws(DigitError) in try decode(bytes, maxPixels: maxPixels, budget: budget) }
        }
        return try decoded.get()
    }

    private static func decode(_ png: UnsafeRawBufferPointer, maxPixels: Int,
                               budget: DecodeMemoryBudget) throws(DigitError) -> GrayImage? {
        guard let header = header(png) else { return nil }
        let (pixelCount, tooMany) = header.width.multipliedReportingOverflow(by: header.height)
        guard !tooMany, pixelCount <= maxPixels, let data = imageData(png, palettePermitted: header.channels >= 3) else {
            return nil
        }
        let rowBytes = header.width * header.channels
        let (size, overflow) = header.height.multipliedReportingOverflow(by: rowBytes + 1)
        guard !overflow else { return nil }
        // The inflated rows, the grey picture, and the joined IDATs when there are several.
        let joinedBytes = data.count == 1 ? 0 : data.reduce(0) { $0 + $1.count }
        let picture = "\(header.width)x\(header.height) \(header.kind)"
        return try budget.withReservation(size + pixelCount + joinedBytes, for: picture) { () throws(DigitError) in
            guard let inflater = DeflateDecompressor() else { return nil }
            var inflated = [UInt8](repeating: 0, count: size)
            let outcome = inflated.withUnsafeMutableBytes { out in
                if data.count == 1 {
                    return inflater.inflateZlib(UnsafeRawBufferPointer(rebasing: png[data[0]]), into: out)
                }
                var joined: [UInt8] = []
                joined.reserveCapacity(joinedBytes)
                for range in data { joined.append(contentsOf: png[range]) }
                return joined.withUnsafeBytes { inflater.inflateZlib($0, into: out) }
            }
            switch outcome {
            case .filled: return unfiltered(&inflated, header: header)
            case .failed: return nil
            case .overflowed:
                throw DigitError(.invalidImage, "corrupt PNG: too much image data: it goes on beyond the \(header.width)x\(header.height) picture")
            }
        }
    }

    /// Unfilters every row in place and reduces it to grey; nil at an
    /// undefined filter type.
    private static func unfiltered(_ inflated: inout [UInt8], header: Header) -> GrayImage? {
        let width = header.width, height = header.height, channels = header.channels
        let rowBytes = width * channels, stride = rowBytes + 1
        let zeros = [UInt8](repeating: 0, count: rowBytes)
        let hasAlpha = channels == 2 || channels == 4
        var valid = true
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height) { out, initialized in
            inflated.withUnsafeMutableBufferPointer { rows in
                zeros.withUnsafeBufferPointer { zeros in
                    let base = rows.baseAddress!
                    var alphaInk = AlphaInk()
                    for y in 0..<height {
                        let row = base + y * stride + 1
                        let previous = y == 0 ? zeros.baseAddress! : UnsafePointer(row - stride)
                        guard PNGScanlineFilter.unfilter(row[-1], row: row, previous: previous, count: rowBytes,
                                                         bytesPerPixel: channels) else { valid = false; return }
                        GrayConversion.convert(row, channels: channels, count: width, into: out.baseAddress! + y * width)
                        if hasAlpha { alphaInk.observe(row, channels: channels, count: width) }
                    }
                    // The rows stay unfiltered in place: the alpha is read again from them.
                    guard alphaInk.found else { return }
                    for y in 0..<height {
                        AlphaInk.write(base + y * stride + 1, channels: channels, count: width, into: out.baseAddress! + y * width)
                    }
                }
            }
            initialized = valid ? width * height : 0
        }
        return valid ? try! GrayImage(width: width, height: height, pixels: pixels) : nil
    }

    /// What the fast path needs of IHDR.
    struct Header {
        let width: Int, height: Int, channels: Int

        /// "8-bit RGBA", for messages.
        var kind: String { "8-bit " + ["grey", "grey+alpha", "RGB", "RGBA"][channels - 1] }
    }

    /// IHDR, when it is the first chunk, has a right CRC, and describes a
    /// picture this path takes: bit depth 8, colour type 0, 2, 4 or 6,
    /// standard compression and filtering, no interlacing.
    static func header(_ png: UnsafeRawBufferPointer) -> Header? {
        guard case .success(let ihdr) = PNGChunks.chunk(in: png, at: ImageFormat.pngSignature.count),
              ihdr.type == .IHDR, ihdr.data.count == 13,
              ChunkChecksum.holds(png, ihdr) else { return nil }
        let width = Int(bigEndian(png, at: 16)), height = Int(bigEndian(png, at: 20))
        let depth = png[24], colorType = png[25]
        guard (1...Int(Int32.max)).contains(width), (1...Int(Int32.max)).contains(height), depth == 8,
              png[26] == 0, png[27] == 0, png[28] == 0 else { return nil }
        let channels: Int
        switch colorType {
        case 0: channels = 1
        case 2: channels = 3
        case 4: channels = 2
        case 6: channels = 4
        default: return nil
        }
        return Header(width: width, height: height, channels: channels)
    }

    /// The byte ranges of the IDAT chunks' data, in order, when the chunks
    /// after IHDR are ones this path may decode past: IDATs in one
    /// unbroken sequence, a PLTE before them when `palettePermitted` (a
    /// colour picture's suggested palette), IEND, and ancillary chunks other than tRNS, which only
    /// libpng applies. Every IDAT's and PLTE's CRC must hold, as libpng
    /// requires of critical chunks. Nil otherwise.
    static func imageData(_ png: UnsafeRawBufferPointer, palettePermitted: Bool) -> [Range<Int>]? {
        var ranges: [Range<Int>] = [], sequenceEnded = false
        for chunk in PNGChunks(png, from: 33) {
            guard chunk.type.isLetters else { return nil }
            switch chunk.type {
            case .IDAT:
                guard !sequenceEnded, ChunkChecksum.holds(png, chunk) else { return nil }
                ranges.append(chunk.data)
            case .IEND:
                return ranges.isEmpty ? nil : ranges
            case .PLTE:
                guard palettePermitted, ranges.isEmpty, ChunkChecksum.holds(png, chunk) else { return nil }
            case .tRNS:
                return nil
            default:
                // Critical chunks (upper-case first letter) this path does not know: libpng judges them.
                guard !chunk.type.isCritical else { return nil }
                if !ranges.isEmpty { sequenceEnded = true }
            }
        }
        return nil
    }

    /// The 4-byte big-endian number at `offset` (within bounds: checked by the caller).
    static func bigEndian(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }
}
