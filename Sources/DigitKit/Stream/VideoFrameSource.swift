/// Reads the frames of a video stream from a file descriptor, one at a
/// time: a YUV4MPEG2 stream (Y4MHeader) or pictures back to back (what
/// `ffmpeg -f image2pipe -c:v png|mjpeg|pgm` writes), told apart by the
/// first bytes.
///
/// Nothing is buffered beyond the frame being read: a y4m frame's size is
/// known from the header, checked against the pixel ceiling before the
/// first frame; each picture of an image stream is read to its own end
/// (StreamedImageExtent) within `maxBytes`, and its pixels are checked by
/// its decoder. Errors name the frame ("frame 12: truncated ...").
public struct VideoFrameSource: Sendable {
    /// What the stream turned out to be, once its first bytes are read.
    private enum Kind {
        case undetected
        case y4m(Y4MHeader)
        /// Pictures, read by `extent`.
        case images
    }

    private var reader: ByteReader
    private var kind = Kind.undetected
    /// Reads the pictures of an image stream; it takes `reader` over.
    private var extent: StreamedImageExtent?
    private let maxPixels: Int
    private let maxBytes: Int
    /// The index of the next frame.
    public private(set) var frameIndex = 0

    /// Frames from `descriptor`; `name` is how errors name the stream.
    public init(descriptor: Int32, name: String, maxPixels: Int = PNGDecoder.defaultMaxPixels, maxBytes: Int = PNGDecoder.defaultMaxBytes) {
        self.reader = ByteReader(descriptor: descriptor, name: name)
        self.maxPixels = maxPixels
        self.maxBytes = maxBytes
    }

    /// The y4m header, once read; nil for an image stream.
    public var y4mHeader: Y4MHeader? {
        if case .y4m(let header) = kind { return header }
        return nil
    }

    /// The next frame, or nil at the clean end of the stream. A stream that
    /// ends inside a frame, or holds something else where a frame should
    /// start, throws.
    public mutating func next() throws(DigitError) -> VideoFrame? {
        do throws(DigitError) {
            if case .undetected = kind { try detect() }
            let content: VideoFrame.Content?
            switch kind {
            case .undetected: content = nil
            case .y4m(let header): content = try nextY4MFrame(header)
            case .images: content = try nextImage()
            }
            guard let content else { return nil }
            defer { frameIndex += 1 }
            return VideoFrame(index: frameIndex, content: content, readTime: StreamClock.now())
        } catch {
            // Errors about the stream as a whole (its header, its format) are
            // not about a frame.
            if case .undetected = kind { throw error }
            throw error.prefixed("frame \(frameIndex)")
        }
    }

    // MARK: Detection

    private mutating func detect() throws(DigitError) {
        let head = try reader.peek(upTo: Y4MHeader.signature.count)
        if head.isEmpty { throw DigitError(.invalidImage, "empty stream: no frame") }
        if head.elementsEqual(Y4MHeader.signature) {
            let line = try readLine(what: "YUV4MPEG2 header")
            kind = .y4m(try Y4MHeader(line: line, maxPixels: maxPixels))
        } else if ImageFormat.detect(head) != nil {
            extent = StreamedImageExtent(reader: reader, maxBytes: maxBytes)
            kind = .images
        } else {
            let error = ImageDecoder.unreadable(Array(try reader.peek(upTo: 64)))
            throw DigitError(.invalidImage, "not a video stream (YUV4MPEG2, or PNG, JPEG or PGM pictures back to back): \(error.message)")
        }
    }

    /// Bytes up to the next newline, which is consumed; at most Y4MHeader.maxLineLength.
    private mutating func readLine(what: String) throws(DigitError) -> [UInt8] {
        var looked = 0
        while true {
            let available = try reader.peek(upTo: min(looked + 256, Y4MHeader.maxLineLength + 1))
            if let newline = available.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(available[available.startIndex..<newline])
                reader.consume(line.count + 1)
                return line
            }
            guard available.count > looked, available.count <= Y4MHeader.maxLineLength else {
                throw available.count > Y4MHeader.maxLineLength
                    ? DigitError(.invalidImage, "corrupt \(what): no end of line in \(Y4MHeader.maxLineLength) bytes")
                    : DigitError(.invalidImage, "truncated \(what): the stream ends inside it")
            }
            looked = available.count
        }
    }

    // MARK: YUV4MPEG2 frames

    private static let frameMarker = Array("FRAME".utf8)

    private mutating func nextY4MFrame(_ header: Y4MHeader) throws(DigitError) -> VideoFrame.Content? {
        let head = try reader.peek(upTo: Self.frameMarker.count)
        if head.isEmpty { return nil }
        guard head.elementsEqual(Self.frameMarker) else {
            throw DigitError(.invalidImage, "corrupt YUV4MPEG2 stream: no FRAME header where the frame should start")
        }
        _ = try readLine(what: "FRAME header")
        let luma = try reader.take(upTo: header.width * header.height)
        let chroma = header.chroma.planeBytes(width: header.width, height: header.height)
        guard luma.count == header.width * header.height, try reader.discard(chroma) == chroma else {
            throw DigitError(.invalidImage, "truncated: the stream ends inside the frame")
        }
        return .luma(try! GrayImage(width: header.width, height: header.height, pixels: luma))
    }

    // MARK: Pictures back to back

    private mutating func nextImage() throws(DigitError) -> VideoFrame.Content? {
        let head = try extent!.reader.peek(upTo: ImageFormat.signatureLength)
        if head.isEmpty { return nil }
        guard let format = ImageFormat.detect(head) else {
            throw DigitError(.invalidImage, "not a picture (PNG, JPEG or PGM) where the frame should start")
        }
        return .encoded(try extent!.next(format))
    }
}
