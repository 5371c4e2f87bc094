internal import CLibPNG

/// Decodes PNG files into 8-bit greyscale with libpng's simplified
/// `png_image_*` API, which reports errors in `png_image.message` and never
/// longjmps through Swift frames; 8-bit non-interlaced pictures first try
/// PNGFastPath, which gives the same pixels about twice as fast.
///
/// Every PNG colour type and bit depth (1-16) is accepted, with palettes,
/// tRNS transparency and Adam7 interlacing. Sample values are taken as
/// stored (colour-management chunks are ignored, as Pillow does; see
/// ColorManagementChunks); 16-bit samples keep their high byte (v >> 8), as
/// Pillow does; colour becomes luma with the ITU-R 601 weights Pillow uses
/// (L = 0.299 R + 0.587 G + 0.114 B); alpha is composited over white, as the
/// picture looks on paper, unless the colour is one light colour and the
/// alpha holds the shape (AlphaInk): then the alpha is the ink.
public struct PNGDecoder: Sendable {
    /// The default pixel ceiling: 64 megapixels.
    public static let defaultMaxPixels = 64 * 1024 * 1024
    /// The default input size ceiling: 256 MiB, far above any 64-megapixel PNG in practice.
    public static let defaultMaxBytes = 256 * 1024 * 1024

    /// Images with more pixels than this are refused once the header is
    /// read, before any buffer of that size is allocated.
    public var maxPixels: Int
    /// Files (and standard input) longer than this are refused.
    public var maxBytes: Int
    /// Whether 8-bit non-interlaced pictures take PNGFastPath (libdeflate)
    /// before libpng; off only where the tests and the fuzzer compare the
    /// two paths.
    @_spi(Fuzzing) public var usesFastPath = true
    /// Where the decode reserves its buffers' bytes before allocating them.
    var memoryBudget = DecodeMemoryBudget.shared

    /// A decoder with these ceilings (64 megapixels and 256 MiB by default);
    /// nothing is checked until a file is decoded.
    public init(maxPixels: Int = PNGDecoder.defaultMaxPixels, maxBytes: Int = PNGDecoder.defaultMaxBytes) {
        self.maxPixels = maxPixels
        self.maxBytes = maxBytes
    }

    /// Decodes the PNG file at `path`; "-" reads standard input.
    /// Errors carry `path` as their subject.
    public func decode(fileAtPath path: String) throws(DigitError) -> GrayImage {
        try InputReader.decodeFile(at: InputPath(path), maxBytes: maxBytes) { (bytes) throws(DigitError) in try decode(bytes: bytes) }
    }

    /// Decodes PNG bytes held in memory: the commonest pictures through
    /// PNGFastPath (libdeflate), everything else and anything that path
    /// declines with libpng (png_image_begin_read_from_memory, then
    /// png_image_finish_read).
    public func decode(bytes: [UInt8]) throws(DigitError) -> GrayImage {
        try checkSignature(bytes.prefix(8))
        let imageDataLength = try PNGStructure.check(bytes)
        try PNGImageDataBounds.check(bytes, imageDataLength: imageDataLength, maxPixels: maxPixels)
        if usesFastPath, let image = try PNGFastPath.decode(bytes, maxPixels: maxPixels, budget: memoryBudget) { return image }
        var png = bytes
        ColorManagementChunks.neutralize(&png)
        let decoded = png.withUnsafeBytes { buffer in
            var image = png_image()
            image.version = png_uint_32(PNG_IMAGE_VERSION)
            let began = png_image_begin_read_from_memory(&image, buffer.baseAddress, buffer.count)
            return Result { () throws(DigitError) in try finish(&image, began: began) }
        }
        return try decoded.get()
    }

    /// Checks the 8-byte PNG signature, so that the commonest mistakes get a precise message.
    private func checkSignature(_ head: ArraySlice<UInt8>) throws(DigitError) {
        let signature = ImageFormat.pngSignature
        if head.isEmpty { throw DigitError(.invalidImage, "empty file") }
        if head.count < 8 && head.elementsEqual(signature.prefix(head.count)) {
            throw DigitError(.invalidImage, "truncated PNG (\(head.count) bytes)")
        }
        if !head.elementsEqual(signature) {
            throw DigitError(.invalidImage, "not a PNG file (bad signature)")
        }
    }

    /// Checks the header that `png_image_begin_read_*` filled in against the
    /// pixel ceiling, reserves the buffers' bytes from the memory budget, then
    /// decodes with `png_image_finish_read` into as many 8- or 16-bit
    /// channels as the file has, and reduces them to grey row by row.
    private func finish(_ image: inout png_image, began: Int32) throws(DigitError) -> GrayImage {
        guard began != 0 else {
            throw DigitError(.invalidImage, "corrupt PNG: \(libpngMessage(image))")
        }
        let width = Int(image.width), height = Int(image.height)
        let (pixelCount, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixelCount <= maxPixels else {
            png_image_free(&image)
            throw DigitError(.imageTooLarge, "image is \(width)x\(height) pixels, over the limit of \(maxPixels) pixels")
        }
        let hasAlpha = image.format & png_uint_32(PNG_FORMAT_FLAG_ALPHA) != 0
        let hasColor = image.format & png_uint_32(PNG_FORMAT_FLAG_COLOR) != 0
        // begin_read reports 16-bit files with the LINEAR flag.
        let sixteenBit = image.format & png_uint_32(PNG_FORMAT_FLAG_LINEAR) != 0
        let channels = (hasColor ? 3 : 1) + (hasAlpha ? 1 : 0)
        image.format = png_uint_32((hasColor ? PNG_FORMAT_FLAG_COLOR : 0) | (hasAlpha ? PNG_FORMAT_FLAG_ALPHA : 0))
        let sampleBytes = sixteenBit ? 2 : 1
        let picture = "\(width)x\(height) \(sampleBytes * 8)-bit \(["grey", "grey+alpha", "RGB", "RGBA"][channels - 1])"
        let gray: [UInt8]
        do throws(DigitError) {
            // The samples libpng writes and the grey picture (row buffers aside).
            gray = try memoryBudget.withReservation(pixelCount * (channels * sampleBytes + 1), for: picture) { () throws(DigitError) in
                try readGray(&image, width: width, channels: channels, hasAlpha: hasAlpha, sixteenBit: sixteenBit)
            }
        } catch {
            // Refused by the budget: png_image_finish_read, which frees the image, was not called.
            png_image_free(&image)
            throw error
        }
        return try! GrayImage(width: width, height: height, pixels: gray)
    }

    /// png_image_finish_read into 8- or 16-bit samples of `channels`
    /// channels, reduced to one grey byte per pixel.
    private func readGray(_ image: inout png_image, width: Int, channels: Int, hasAlpha: Bool,
                          sixteenBit: Bool) throws(DigitError) -> [UInt8] {
        let count = width * Int(image.height) * channels
        if sixteenBit {
            // 16-bit files are read as 16-bit linear samples, which without
            // colour-management chunks are the stored values (alpha-premultiplied).
            // Asking libpng for 8 bits instead would hit its bug with interlaced
            // 16-bit input (libpng issue #853, pixels from the wrong rows).
            image.format |= png_uint_32(PNG_FORMAT_FLAG_LINEAR)
            var samples = [UInt16](repeating: 0, count: count)
            try finishRead(&image, into: &samples, rowStride: width * channels)
            return GrayConversion.gray(premultiplied16: samples, width: width, channels: channels, hasAlpha: hasAlpha)
        }
        var samples = [UInt8](repeating: 0, count: count)
        try finishRead(&image, into: &samples, rowStride: width * channels)
        return GrayConversion.gray(samples: samples, channels: channels, hasAlpha: hasAlpha)
    }

    /// png_image_finish_read into `buffer`, whose rows are `rowStride` samples apart.
    private func finishRead<Sample>(_ image: inout png_image, into buffer: inout [Sample], rowStride: Int) throws(DigitError) {
        let finished = buffer.withUnsafeMutableBytes { bytes in
            png_image_finish_read(&image, nil, bytes.baseAddress, png_int_32(rowStride), nil)
        }
        guard finished != 0 else {
            throw DigitError(.invalidImage, "corrupt PNG: \(libpngMessage(image))")
        }
    }

    /// The NUL-terminated text libpng left in `png_image.message`.
    private func libpngMessage(_ image: png_image) -> String {
        var message = image.message
        let text = withUnsafeBytes(of: &message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return text.isEmpty ? "unknown libpng error" : text
    }
}
