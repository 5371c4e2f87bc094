/// Decodes Netpbm images (PBM, PGM and PPM: P1 to P6, plain and binary)
/// into 8-bit grey, with no library: the format is a short text header and
/// an uncompressed raster (see PNMHeader).
///
/// Samples are scaled from 0...maxval to 0...255 as Pillow's PPM plugin
/// scales them: round(v / maxval * 255) in double precision, ties to even;
/// 16-bit samples are big-endian. One exception: Pillow keeps grey with a
/// maxval above 255 as 32-bit integers, which its `convert("L")` then clips
/// at 255 (nearly every pixel white); digits scales that grey like any other
/// sample. Colour becomes luma with the integers Pillow's `convert("L")`
/// uses (GrayConversion.luma). In bitmaps 1 is black and 0 white.
///
/// Hostile input: the header's numbers are bounded (PNMHeader), the pixel
/// ceiling is checked before anything of the image's size is allocated, and
/// so is the length the raster needs at the least; a sample above maxval,
/// a malformed plain token or data that ends early is refused.
public struct PNMDecoder: Sendable {
    /// Images with more pixels than this are refused from their header.
    public var maxPixels: Int

    /// A decoder with this pixel ceiling (64 megapixels by default); nothing is
    /// checked until a file is decoded.
    public init(maxPixels: Int = PNGDecoder.defaultMaxPixels) {
        self.maxPixels = maxPixels
    }

    /// Decodes PNM bytes held in memory.
    public func decode(bytes: [UInt8]) throws(DigitError) -> GrayImage {
        let header = try PNMHeader(bytes)
        // Both sides are at most Int32.max, so the product cannot overflow Int.
        let pixelCount = header.width * header.height
        guard pixelCount <= maxPixels else {
            throw DigitError(.imageTooLarge, "image is \(header.width)x\(header.height) pixels, over the limit of \(maxPixels) pixels")
        }
        let gray: [UInt8]
        switch header.kind {
        case .binaryBitmap:
            gray = try Self.binaryBitmap(bytes, header)
        case .plainBitmap:
            gray = try Self.plainBitmap(bytes, header, pixelCount: pixelCount)
        case .binaryGray, .binaryColor:
            gray = Self.toGray(try Self.binarySamples(bytes, header, count: pixelCount * header.kind.channels), header)
        case .plainGray, .plainColor:
            gray = Self.toGray(try Self.plainSamples(bytes, header, count: pixelCount * header.kind.channels), header)
        }
        return try GrayImage(decodedWidth: header.width, height: header.height, pixels: gray)
    }

    /// One grey byte per pixel from 8-bit grey or RGB samples.
    private static func toGray(_ samples: [UInt8], _ header: PNMHeader) -> [UInt8] {
        header.kind.channels == 3 ? GrayConversion.gray(samples: samples, channels: 3, hasAlpha: false) : samples
    }

    /// 0...maxval to 0...255 for every possible sample (at most 65536 entries),
    /// with the arithmetic of Pillow's `round(value / maxval * 255)`.
    static func scaleTable(maxval: Int) -> [UInt8] {
        (0...maxval).map { UInt8((Double($0) / Double(maxval) * 255).rounded(.toNearestOrEven)) }
    }

    /// P5 and P6: `count` samples of one byte (maxval up to 255) or two, big-endian.
    private static func binarySamples(_ bytes: [UInt8], _ header: PNMHeader, count: Int) throws(DigitError) -> [UInt8] {
        let sampleSize = header.maxval > 255 ? 2 : 1
        let needed = count * sampleSize  // count <= 3 * maxPixels: far from overflowing
        let available = bytes.count - header.rasterStart
        guard available >= needed else {
            throw DigitError(.invalidImage, "truncated PNM: the file ends inside the pixel data (\(available) of \(needed) bytes)")
        }
        let raster = bytes[header.rasterStart..<(header.rasterStart + needed)]
        if header.maxval == 255 { return Array(raster) }
        let table = scaleTable(maxval: header.maxval)
        var samples = [UInt8](repeating: 0, count: count)
        var index = raster.startIndex
        for i in 0..<count {
            let value = sampleSize == 2 ? Int(raster[index]) << 8 | Int(raster[index + 1]) : Int(raster[index])
            guard value < table.count else {
                throw DigitError(.invalidImage, "corrupt PNM: a sample is \(value), over the maxval of \(header.maxval)")
            }
            samples[i] = table[value]
            index += sampleSize
        }
        return samples
    }

    /// P2 and P3: `count` decimal samples separated by whitespace or comments.
    private static func plainSamples(_ bytes: [UInt8], _ header: PNMHeader, count: Int) throws(DigitError) -> [UInt8] {
        var scanner = PNMScanner(bytes, from: header.rasterStart)
        // Every sample takes a digit and every gap a byte: fewer bytes than
        // that cannot hold the image, whatever its header claims.
        guard scanner.remaining >= 2 * count - 1 else {
            throw DigitError(.invalidImage, "truncated PNM: the file is too short for the \(count) samples its header declares")
        }
        let table = scaleTable(maxval: header.maxval)
        var samples = [UInt8](repeating: 0, count: count)
        for i in 0..<count {
            let value: Int
            switch scanner.decimal(maxDigits: PNMHeader.maxDigits) {
            case .end:
                throw DigitError(.invalidImage, "truncated PNM: the file ends after \(i) of \(count) samples")
            case .notANumber(let byte):
                throw DigitError(.invalidImage, "corrupt PNM: \(describe(byte)) in the pixel data, where a number should be")
            case .tooManyDigits:
                throw DigitError(.invalidImage, "corrupt PNM: a sample has more than \(PNMHeader.maxDigits) digits")
            case .number(let number):
                value = number
            }
            guard value < table.count else {
                throw DigitError(.invalidImage, "corrupt PNM: a sample is \(value), over the maxval of \(header.maxval)")
            }
            samples[i] = table[value]
        }
        return samples
    }

    /// P4: rows of ceil(width / 8) bytes, most significant bit first; 1 is black.
    private static func binaryBitmap(_ bytes: [UInt8], _ header: PNMHeader) throws(DigitError) -> [UInt8] {
        let rowBytes = (header.width + 7) / 8
        let needed = rowBytes * header.height  // at most about maxPixels / 8 + height: no overflow
        let available = bytes.count - header.rasterStart
        guard available >= needed else {
            throw DigitError(.invalidImage, "truncated PNM: the file ends inside the pixel data (\(available) of \(needed) bytes)")
        }
        var gray = [UInt8](repeating: 0, count: header.width * header.height)
        for y in 0..<header.height {
            let row = header.rasterStart + y * rowBytes
            for x in 0..<header.width {
                let bit = bytes[row + x / 8] >> (7 - UInt8(x % 8)) & 1
                gray[y * header.width + x] = bit == 1 ? 0 : 255
            }
        }
        return gray
    }

    /// P1: "0" and "1" characters, whitespace and comments between them optional.
    private static func plainBitmap(_ bytes: [UInt8], _ header: PNMHeader, pixelCount: Int) throws(DigitError) -> [UInt8] {
        var scanner = PNMScanner(bytes, from: header.rasterStart)
        guard scanner.remaining >= pixelCount else {
            throw DigitError(.invalidImage, "truncated PNM: the file is too short for the \(pixelCount) pixels its header declares")
        }
        var gray = [UInt8](repeating: 0, count: pixelCount)
        for i in 0..<pixelCount {
            scanner.skipWhitespaceAndComments()
            switch scanner.next() {
            case UInt8(ascii: "0"): gray[i] = 255
            case UInt8(ascii: "1"): gray[i] = 0
            case nil: throw DigitError(.invalidImage, "truncated PNM: the file ends after \(i) of \(pixelCount) pixels")
            case let other?: throw DigitError(.invalidImage, "corrupt PNM: \(describe(other)) in a bitmap's pixel data, where 0 or 1 should be")
            }
        }
        return gray
    }

    /// A byte for a message: the character when printable ASCII, else its hex value.
    private static func describe(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }
}
