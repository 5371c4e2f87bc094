/// Reads exactly one encoded image off a stream of several, by the image's
/// own structure, for ConcatenatedImages: PNG to its IEND chunk, JPEG to
/// its EOI marker, binary PNM to the end of its raster as its header sizes
/// it. Never by scanning for the next signature, which image data may
/// contain. Each appends to `image` only after checking that it stays
/// within `maxBytes`, so no stream can make it buffer without bound.
struct StreamedImageExtent {
    var reader: ByteReader
    let maxBytes: Int
    private var image: [UInt8] = []

    init(reader: ByteReader, maxBytes: Int) {
        self.reader = reader
        self.maxBytes = maxBytes
    }

    /// Where a second image begins in `bytes`, which hold one image of a
    /// streamable format (PNG, JPEG, binary PNM) and whatever follows it;
    /// nil when nothing or nothing that starts like an image follows (data
    /// some writers leave after the end of a picture), or when the first
    /// image cannot be delimited (plain PNM, a broken image: its decoder
    /// says why).
    static func secondImageOffset(in bytes: [UInt8]) -> Int? {
        guard let format = ImageFormat.detect(bytes.prefix(ImageFormat.signatureLength)) else { return nil }
        var extent = StreamedImageExtent(reader: ByteReader(bytes: bytes, name: "input"), maxBytes: bytes.count)
        guard let first = try? extent.next(format), first.count < bytes.count,
              ImageFormat.detect(bytes[first.count...].prefix(ImageFormat.signatureLength)) != nil else { return nil }
        return first.count
    }

    /// The next image of `format`, whose signature is the next bytes of the stream.
    mutating func next(_ format: ImageFormat) throws(DigitError) -> [UInt8] {
        image = []
        switch format {
        case .png: try readPNG()
        case .jpeg: try readJPEG()
        case .pnm: try readPNM()
        }
        return image
    }

    private mutating func append<Bytes: Collection>(_ bytes: Bytes) throws(DigitError) where Bytes.Element == UInt8 {
        guard image.count + bytes.count <= maxBytes else {
            throw DigitError(.imageTooLarge, "image is larger than the limit of \(maxBytes) bytes")
        }
        image.append(contentsOf: bytes)
    }

    /// Exactly `count` more bytes of the image, or the truncation error `cutOff`.
    private mutating func take(_ count: Int, orElse cutOff: String) throws(DigitError) {
        guard image.count + count <= maxBytes else {
            throw DigitError(.imageTooLarge, "image is larger than the limit of \(maxBytes) bytes")
        }
        let bytes = try reader.take(upTo: count)
        try append(bytes)
        guard bytes.count == count else { throw DigitError(.invalidImage, cutOff) }
    }

    // MARK: PNG: the signature, then chunks (length, type, data, CRC) up to IEND.

    /// Fetches what PNGChunks says the next chunk lacks until a whole chunk
    /// is at hand: a header as far as the stream goes, a chunk's data and
    /// CRC only when they stay within `maxBytes`.
    private mutating func readPNG() throws(DigitError) {
        try take(8, orElse: "truncated PNG")
        var position = image.count
        while true {
            switch PNGChunks.chunk(in: image, at: position) {
            case .success(let chunk):
                if chunk.type == .IEND { return }
                position = chunk.end
            case .failure(.cutOffHeader(let missing)):
                let header = try reader.take(upTo: missing)
                try append(header)
                guard header.count == missing else {
                    throw DigitError(.invalidImage, "truncated PNG: the stream ends before the IEND chunk")
                }
            case .failure(.cutOffChunk(let type, let missing)):
                try take(missing, orElse: "truncated PNG: the stream ends inside \(type.chunkName)")
            case .failure(.oversized(let type, let length)):
                throw DigitError(.invalidImage, "corrupt PNG: \(type.chunkName) claims \(length) bytes")
            }
        }
    }

    // MARK: JPEG: SOI, marker segments, entropy-coded data after each SOS, EOI.

    /// Fetches what JPEGSegments says the next marker lacks until a whole
    /// segment is at hand: a marker a byte at a time (fill bytes may come
    /// before it), a length as far as the stream goes, a payload only when
    /// it stays within `maxBytes`. Between segments a marker must follow at
    /// once: only after SOS may image data come first.
    private mutating func readJPEG() throws(DigitError) {
        try take(2, orElse: "truncated JPEG")
        var position = image.count
        while true {
            let next = JPEGSegments.segment(in: image, at: position)
            // A marker's bytes are kept before they are judged: a byte that
            // starts no marker is refused as such, whatever the size limit.
            if case .failure(.notAMarker(let at, let byte)) = next {
                throw DigitError(.invalidImage, "corrupt JPEG: byte \(at) should start a marker but is 0x\(String(byte, radix: 16, uppercase: true))")
            }
            guard image.count <= maxBytes else {
                throw DigitError(.imageTooLarge, "image is larger than the limit of \(maxBytes) bytes")
            }
            switch next {
            case .success(let segment):
                if segment.marker == JPEGMarker.eoi { return }
                if segment.marker == JPEGMarker.sos { try readEntropyCodedData() }
                position = image.count
            case .failure(.cutOffMarker):
                guard let byte = try reader.nextByte() else { throw Self.jpegCutOff }
                image.append(byte)
                // A fill byte: the marker starts at the last FF, so that a
                // run of them is walked once, not again for every byte.
                if byte == 0xFF { position = image.count - 1 }
            case .failure(.cutOffLength(_, let missing)):
                let lengthBytes = try reader.take(upTo: missing)
                try append(lengthBytes)
                guard lengthBytes.count == missing else { throw Self.jpegCutOff }
            case .failure(.cutOffSegment(_, let missing)):
                try take(missing, orElse: Self.jpegCutOff.message)
            case .failure(.badLength(_, let length)):
                throw DigitError(.invalidImage, "corrupt JPEG: a segment claims a length of \(length)")
            case .failure(.stuffedZero(let at)):
                throw DigitError(.invalidImage, "corrupt JPEG: byte \(at) should start a marker but is 0xFF00")
            case .failure(.notAMarker), .failure(.cutOffImageData):
                throw Self.jpegCutOff  // unreached: the first is thrown above, the second only ends image data
            }
        }
    }

    static let jpegCutOff = DigitError(.invalidImage, "truncated JPEG: the stream ends before the end of the image (EOI)")

    /// Image data after SOS, up to the next marker that JPEGSegments does
    /// not take as image data; the marker itself is left for the segment loop.
    private mutating func readEntropyCodedData() throws(DigitError) {
        while true {
            let buffered = try reader.peek(upTo: 1 << 16)
            let end = JPEGSegments.imageDataEnd(in: buffered, from: buffered.startIndex)
            let data: Int
            switch end {
            case .marker(let at): data = at
            case .cutOff(let at): data = at
            }
            guard data > buffered.startIndex || end == .marker(at: data) else {
                throw DigitError(.invalidImage, "truncated JPEG: the stream ends inside the image data")
            }
            try append(buffered[buffered.startIndex..<data])
            reader.consume(data - buffered.startIndex)
            if case .marker = end { return }
        }
    }

    // MARK: PNM: a header of decimal tokens, then a raster of the size it gives.

    /// Header bytes are looked at without being taken until the header
    /// parses; no header is longer than this (comments included).
    static let maxPNMHeader = 1 << 16

    private mutating func readPNM() throws(DigitError) {
        var header: PNMHeader?
        var looked = 0
        while header == nil {
            let available = try reader.peek(upTo: looked + 256)
            do throws(DigitError) {
                header = try PNMHeader(Array(available))
            } catch {
                // A header cut off by the end of what is buffered so far reads
                // as truncated: look further, unless the stream has no more.
                guard error.message.hasPrefix("truncated PNM"), available.count > looked, available.count < Self.maxPNMHeader else {
                    throw available.count >= Self.maxPNMHeader
                        ? DigitError(.invalidImage, "corrupt PNM: the header is longer than \(Self.maxPNMHeader) bytes") : error
                }
                looked = available.count
            }
        }
        guard let header, !header.kind.isPlain else {
            throw DigitError(.invalidImage, "a plain (text) PNM image cannot be told apart from the next one in a stream; use binary PNM (P4, P5, P6)")
        }
        let rowBytes = header.kind.isBitmap ? (header.width + 7) / 8 : header.width * header.kind.channels * (header.maxval > 255 ? 2 : 1)
        let (size, overflow) = rowBytes.multipliedReportingOverflow(by: header.height)
        guard !overflow, header.rasterStart + size <= maxBytes else {
            throw DigitError(.imageTooLarge, "image is larger than the limit of \(maxBytes) bytes")
        }
        try take(header.rasterStart + size, orElse: "truncated PNM: the stream ends inside the pixel data")
    }
}
