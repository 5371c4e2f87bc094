/// The marker structure of a JPEG stream, walked in Swift before and after
/// libjpeg-turbo decodes it: before, so that a file cut off in its header
/// gets a precise message ("the file ends inside the DHT segment") and
/// kinds of JPEG libjpeg-turbo cannot decode are named as such rather than
/// called corrupt; after a failed decode, to tell a truncated file from a
/// corrupt one.
///
/// The markers themselves are walked by JPEGSegments, which holds the
/// rules of JPEG's container and its bounds.
enum JPEGStructure {
    /// What the frame header (SOFn) declares.
    struct Frame: Equatable {
        let marker: UInt8
        let precision: Int
        let width: Int
        let height: Int
        let components: Int
    }

    /// Checks the segments up to the image data and the frame header, and
    /// returns the frame: a cut-off header, a frame of zero width or height,
    /// and JPEG kinds libjpeg-turbo does not decode are refused here.
    static func check(_ jpeg: [UInt8]) throws(DigitError) -> Frame {
        let segments = try headerSegments(jpeg)
        guard let sof = segments.first(where: { isFrameMarker($0.marker) }) else {
            throw DigitError(.invalidImage, "corrupt JPEG: no frame header (SOF segment) before the image data")
        }
        let payload = jpeg[sof.payload]
        guard payload.count >= 6 else {
            throw DigitError(.invalidImage, "corrupt JPEG: the \(name(of: sof.marker)) segment is too short")
        }
        let start = payload.startIndex
        let frame = Frame(marker: sof.marker, precision: Int(payload[start]),
                          width: Int(payload[start + 3]) << 8 | Int(payload[start + 4]),
                          height: Int(payload[start + 1]) << 8 | Int(payload[start + 2]),
                          components: Int(payload[start + 5]))
        // libjpeg-turbo 2.1 decodes baseline, extended and progressive
        // frames, Huffman or arithmetic coded; not lossless or hierarchical ones.
        guard [0xC0, 0xC1, 0xC2, 0xC9, 0xCA].contains(frame.marker) else {
            throw DigitError(.invalidImage, "unsupported JPEG: a lossless or hierarchical JPEG (\(name(of: frame.marker))), which libjpeg-turbo does not decode; convert it to PNG first")
        }
        guard frame.precision == 8 else {
            throw DigitError(.invalidImage, "unsupported JPEG: \(frame.precision)-bit samples; digits reads 8-bit JPEGs only")
        }
        guard frame.width > 0, frame.height > 0 else {
            throw DigitError(.invalidImage, "corrupt JPEG: the image is \(frame.width)x\(frame.height) pixels")
        }
        guard [1, 3, 4].contains(frame.components) else {
            throw DigitError(.invalidImage, "unsupported JPEG: \(frame.components) colour components; digits reads 1 (grey), 3 (colour) or 4 (CMYK)")
        }
        return frame
    }

    /// The segments from SOI up to and including the first SOS (markers
    /// that stand alone, as TEM, RSTn and a repeated SOI, are left to libjpeg).
    static func headerSegments(_ jpeg: [UInt8]) throws(DigitError) -> [JPEGSegment] {
        guard jpeg.starts(with: [0xFF, JPEGMarker.soi]) else { throw DigitError(.invalidImage, "not a JPEG file (no SOI marker)") }
        var walk = JPEGSegments(jpeg), segments: [JPEGSegment] = []
        while let segment = walk.next() {
            if segment.marker == JPEGMarker.eoi {
                throw DigitError(.invalidImage, "corrupt JPEG: the file ends (EOI marker) before any image data")
            }
            if segment.hasLength { segments.append(segment) }
            if segment.marker == JPEGMarker.sos { return segments }
        }
        switch walk.stop {
        case .notAMarker(let at, let byte)?:
            throw DigitError(.invalidImage, "corrupt JPEG: byte \(at) should start a marker but is 0x\(hex(byte))")
        case .stuffedZero(let at)?:
            throw DigitError(.invalidImage, "corrupt JPEG: byte \(at) should start a marker but is 0xFF00")
        case .cutOffLength(let marker, _)?, .cutOffSegment(let marker, _)?:
            throw DigitError(.invalidImage, "truncated JPEG: the file ends inside the \(name(of: marker)) segment")
        case .badLength(let marker, let length)?:
            throw DigitError(.invalidImage, "corrupt JPEG: the \(name(of: marker)) segment claims \(length) bytes")
        case .cutOffMarker?, .cutOffImageData?, nil:
            throw DigitError(.invalidImage, "truncated JPEG: the file ends before the image data (SOS segment)")
        }
    }

    /// Whether the stream ends before its EOI marker: for a file whose
    /// header is whole, that means it was cut off inside the image data.
    /// A segment with an impossible length is corruption, not truncation (false).
    static func endsBeforeEndOfImage(_ jpeg: [UInt8]) -> Bool {
        switch walkAfterFirstScan(jpeg, segment: { _ in true }) {
        case nil, .cutOff?: return true
        case .endOfImage?, .corrupt?, .stopped?: return false
        }
    }

    /// How a walk of the markers after the first scan ended.
    enum ScanWalkEnd {
        case endOfImage, cutOff, corrupt
        /// `segment` asked to stop.
        case stopped
    }

    /// Walks the markers that follow the first scan's header, up to EOI,
    /// calling `segment` with each marker that has a length (a later SOS, a
    /// DHT between progressive scans, ...) until it returns false. Image
    /// data is skipped (JPEGSegments). Nil when the header cannot be read.
    static func walkAfterFirstScan(_ jpeg: [UInt8], segment: (UInt8) -> Bool) -> ScanWalkEnd? {
        guard let header = try? headerSegments(jpeg), let firstScan = header.last else { return nil }
        var walk = JPEGSegments(jpeg, imageDataFrom: firstScan.end)
        while let next = walk.next() {
            if next.marker == JPEGMarker.eoi { return .endOfImage }
            if next.hasLength && !segment(next.marker) { return .stopped }
        }
        switch walk.stop {
        case .badLength?: return .corrupt
        case .notAMarker?, .stuffedZero?: return .corrupt  // never in image data: bytes between markers are data there
        case .cutOffMarker?, .cutOffLength?, .cutOffSegment?, .cutOffImageData?, nil: return .cutOff
        }
    }

    /// SOF0-SOF15, which are C0-CF except DHT (C4), JPG (C8) and DAC (CC).
    static func isFrameMarker(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
    }

    /// The usual name of a marker, for messages.
    static func name(of marker: UInt8) -> String {
        switch marker {
        case 0xC4: return "DHT"
        case 0xCC: return "DAC"
        case _ where isFrameMarker(marker): return "SOF\(marker - 0xC0)"
        case 0xDA: return "SOS"
        case 0xDB: return "DQT"
        case 0xDC: return "DNL"
        case 0xDD: return "DRI"
        case 0xE0...0xEF: return "APP\(marker - 0xE0)"
        case 0xFE: return "COM"
        default: return "0xFF\(hex(marker))"
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return byte < 0x10 ? "0" + digits : digits
    }
}
