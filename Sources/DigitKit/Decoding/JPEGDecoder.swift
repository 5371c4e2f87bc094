/// Decodes JPEG files into 8-bit greyscale (0 = black) with libjpeg-turbo's
/// TurboJPEG API (see TurboJPEGDecompressor for why that API): baseline,
/// extended and progressive, Huffman or arithmetic coded, grey, colour
/// (YCbCr or RGB, any chroma subsampling) and Adobe CMYK/YCCK.
///
/// The pixels match Pillow's `Image.open(p).convert("L")`, which decodes
/// with the same library and settings (accurate integer IDCT, smooth
/// chroma upsampling): colour is decoded to RGB and reduced with Pillow's
/// luma integers (GrayConversion.luma); grey JPEGs are decoded to grey
/// directly; four-component JPEGs are reduced as Pillow does
/// (CMYKConversion). Pixels come as stored: EXIF orientation is
/// ImageDecoder's business.
///
/// Where digits and Pillow differ: Pillow decodes whatever libjpeg only
/// warns about (bad Huffman codes, extraneous bytes before a marker, with
/// made-up pixels where the data was bad); digits refuses such files.
///
/// With `maxSide`, a picture whose longer side exceeds it is decoded at
/// 1/2, 1/4 or 1/8 size in the DCT domain (JPEGScale), as Pillow's
/// `draft()` does. Images over `maxPixels` (counted at full size) are
/// refused from the header, before anything of their size is allocated.
public struct JPEGDecoder: Sendable {
    /// Images with more pixels than this (at full size) are refused once the header is read.
    public var maxPixels: Int
    /// When set, decode at the smallest of 1/2, 1/4, 1/8 that keeps the
    /// longer side at least this long (full size if none does).
    public var maxSide: Int?
    /// Where the decode reserves its buffers' bytes before allocating them.
    var memoryBudget = DecodeMemoryBudget.shared

    /// A decoder with these limits (64 megapixels, full size by default); nothing
    /// is checked until a picture is decoded.
    public init(maxPixels: Int = PNGDecoder.defaultMaxPixels, maxSide: Int? = nil) {
        self.maxPixels = maxPixels
        self.maxSide = maxSide
    }

    /// Decodes JPEG bytes held in memory.
    public func decode(bytes: [UInt8]) throws(DigitError) -> GrayImage {
        let frame = try JPEGStructure.check(bytes)
        try JPEGStructure.checkScanCount(bytes)
        let decompressor = try TurboJPEGDecompressor()
        let decoded = bytes.withUnsafeBufferPointer { jpeg in
            Result { () throws(DigitError) in try decode(jpeg, with: decompressor, frame: frame, file: bytes) }
        }
        return try decoded.get()
    }

    /// Reads the header, checks the ceiling, picks the scale, decodes and reduces to grey.
    private func decode(_ jpeg: UnsafeBufferPointer<UInt8>, with decompressor: borrowing TurboJPEGDecompressor,
                        frame: JPEGStructure.Frame,
                        file: [UInt8]) throws(DigitError) -> GrayImage {
        let header: TurboJPEGDecompressor.Header
        switch decompressor.header(jpeg) {
        case .success(let read): header = read
        case .failure(let failure): throw DigitError(.invalidImage, "corrupt JPEG: \(Self.oneLine(failure.message))")
        }
        let (pixelCount, overflow) = header.width.multipliedReportingOverflow(by: header.height)
        guard !overflow, pixelCount <= maxPixels else {
            throw DigitError(.imageTooLarge, "image is \(header.width)x\(header.height) pixels, over the limit of \(maxPixels) pixels")
        }
        let scale = maxSide.map { JPEGScale.choose(width: header.width, height: header.height, maxSide: $0, available: JPEGScale.available) } ?? .full
        let width = scale.scaled(header.width), height = scale.scaled(header.height)
        let format: TurboJPEGDecompressor.PixelFormat
        switch header.colorspace {
        case .gray: format = .gray
        case .color: format = .rgb
        case .cmyk: format = .cmyk
        }
        // The samples TurboJPEG writes and the grey picture; a progressive
        // JPEG's coefficients too, which libjpeg-turbo keeps for the whole
        // picture at full size (2 bytes each, at most one per sample).
        let kind = switch format {
        case .gray: "grey"
        case .rgb: "RGB"
        case .cmyk: "CMYK"
        }
        let picture = "\(width)x\(height) \(kind)"
        let coefficients = [0xC2, 0xCA].contains(frame.marker) ? header.width * header.height * frame.components * 2 : 0
        let reserved = width * height * (format.channels + (format == .gray ? 0 : 1)) + coefficients
        let gray = try memoryBudget.withReservation(reserved, for: picture) { () throws(DigitError) in
            try decodeGray(jpeg, with: decompressor, width: width, height: height, format: format, file: file)
        }
        return try GrayImage(decodedWidth: width, height: height, pixels: gray)
    }

    /// Decompresses to `format` at `width` x `height` and reduces to grey.
    private func decodeGray(_ jpeg: UnsafeBufferPointer<UInt8>, with decompressor: borrowing TurboJPEGDecompressor,
                            width: Int, height: Int, format: TurboJPEGDecompressor.PixelFormat,
                            file: [UInt8]) throws(DigitError) -> [UInt8] {
        var failure: TurboJPEGDecompressor.Failure?
        let samples = [UInt8](unsafeUninitializedCapacity: width * height * format.channels) { buffer, initialized in
            switch decompressor.decompress(jpeg, into: buffer, width: width, height: height, format: format) {
            case .success:
                initialized = buffer.count
            case .failure(let reported):
                failure = reported
                initialized = 0
            }
        }
        if let failure {
            if JPEGStructure.endsBeforeEndOfImage(file) {
                throw DigitError(.invalidImage, "truncated JPEG: the file ends inside the image data")
            }
            throw DigitError(.invalidImage, "corrupt JPEG: \(Self.oneLine(failure.message))")
        }
        switch format {
        case .gray: return samples
        case .rgb: return GrayConversion.gray(samples: samples, channels: 3, hasAlpha: false)
        case .cmyk: return CMYKConversion.gray(storedCMYK: samples)
        }
    }

    /// libjpeg's message on one line, without the "Corrupt JPEG data: " that
    /// would repeat what the error's own prefix says.
    static func oneLine(_ message: String) -> String {
        let line = message.split(whereSeparator: \.isNewline).joined(separator: " ")
        let redundant = "Corrupt JPEG data: "
        return line.hasPrefix(redundant) ? String(line.dropFirst(redundant.count)) : line
    }
}
