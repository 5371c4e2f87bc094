internal import CZlib

/// Reads one MNIST IDX file (gzipped or raw: zlib's gzread reads both):
/// a big-endian magic number naming the element type and dimension count,
/// the dimensions, then the unsigned bytes. Everything the header claims is
/// checked against limits, and the data must be exactly as long as the
/// header says. Memory grows with the data actually read, never with what
/// the header claims: a short file claiming a gigabyte costs one chunk.
enum IDXFile {
    /// The most data bytes one file may claim: 1 GiB (MNIST's training images are 47 MB).
    static let maxBytes = 1 << 30
    /// The most elements a dimension may claim.
    static let maxDimension = 100_000_000
    /// The most bytes read in one step, and so allocated ahead of the data.
    static let chunkSize = 1 << 20

    /// The dimensions and bytes of the IDX file at `path`, which must hold
    /// unsigned bytes (type 0x08) in `dimensions` dimensions. `maxItemPixels`
    /// bounds one item, the product of every dimension but the first (an
    /// image's rows x columns): the pixel ceiling every other picture input has.
    static func read(path: String, dimensions: Int, maxItemPixels: Int = PNGDecoder.defaultMaxPixels)
        throws(DigitError) -> (shape: [Int], bytes: [UInt8])
    {
        guard let file = gzopen(path, "rb") else {
            throw DigitError(.fileNotFound, "cannot open", subject: path)
        }
        defer { gzclose(file) }
        let magic = try bigEndianWords(readExactly(file, count: 4, path: path, what: "header"))[0]
        let expectedMagic = 0x0800 | dimensions
        guard magic == expectedMagic else {
            throw DigitError(.invalidDataset, "bad magic number 0x\(String(magic, radix: 16)), expected 0x\(String(expectedMagic, radix: 16)) (unsigned bytes, \(dimensions) dimensions)", subject: path)
        }
        let shape = bigEndianWords(try readExactly(file, count: 4 * dimensions, path: path, what: "header"))
        var total = 1
        for size in shape {
            guard size > 0, size <= maxDimension else {
                throw DigitError(.invalidDataset, "dimension \(size) out of range 1-\(maxDimension)", subject: path)
            }
            let (product, overflow) = total.multipliedReportingOverflow(by: size)
            guard !overflow, product <= maxBytes else {
                throw DigitError(.invalidDataset, "claims more than \(maxBytes) bytes of data", subject: path)
            }
            total = product
        }
        let itemPixels = shape.dropFirst().reduce(1, *)
        guard itemPixels <= maxItemPixels else {
            let size = shape.dropFirst().map(String.init).joined(separator: "x")
            throw DigitError(.invalidDataset, "each item is \(size) pixels, over the limit of \(maxItemPixels) pixels", subject: path)
        }
        let bytes = try readExactly(file, count: total, path: path, what: "data")
        var extra: UInt8 = 0
        guard gzread(file, &extra, 1) == 0 else {
            throw DigitError(.invalidDataset, "longer than its header says (\(shape.map(String.init).joined(separator: "x")) bytes)", subject: path)
        }
        return (shape, bytes)
    }

    private static func bigEndianWords(_ bytes: [UInt8]) -> [Int] {
        stride(from: 0, to: bytes.count, by: 4).map { i in
            bytes[i..<(i + 4)].reduce(0) { (word: Int, byte: UInt8) in word << 8 | Int(byte) }
        }
    }

    private static func readExactly(_ file: gzFile, count: Int, path: String, what: String) throws(DigitError) -> [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(min(count, chunkSize))
        var chunk = [UInt8](repeating: 0, count: min(count, chunkSize))
        var done = 0
        while done < count {
            let want = UInt32(min(count - done, chunk.count))
            let got = chunk.withUnsafeMutableBytes { gzread(file, $0.baseAddress!, want) }
            if got < 0 {
                var code: Int32 = 0
                let message = String(cString: gzerror(file, &code))
                throw DigitError(.invalidDataset, "cannot read \(what): \(message)", subject: path)
            }
            if got == 0 {
                throw DigitError(.invalidDataset, "truncated \(what): \(done) of \(count) bytes", subject: path)
            }
            bytes.append(contentsOf: chunk[..<Int(got)])
            done += Int(got)
        }
        return bytes
    }
}
