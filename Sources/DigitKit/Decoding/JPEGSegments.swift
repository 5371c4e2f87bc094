/// The markers of a JPEG stream, in order, after its SOI: the one walk of
/// JPEG's container that every reader of it (JPEGStructure, JPEGScanCount,
/// ExifLocator, StreamedImageExtent) goes through.
///
/// A marker is FF and a marker byte, after any number of FF fill bytes.
/// TEM (01), RST0-7 (D0-D7), SOI (D8) and EOI (D9) stand alone; every other
/// marker starts a segment: a big-endian 16-bit length that counts itself
/// (so at least 2), then the payload. FF 00 is a stuffed data byte, never a
/// marker. After SOS comes entropy-coded image data, which holds FF only as
/// FF 00, a restart marker or a fill byte, up to the next other marker.
///
/// The walk ends after EOI, after the first SOS unless it is told to go
/// through the image data, or where the bytes break the rules; `stop` then
/// says how, and how many more bytes a cut-off stream needs to go on.
/// Through the image data, whatever lies between the markers after the
/// first SOS is taken as image data (libjpeg skips stray bytes before a
/// marker too). Positions only move forward, by at least one byte a step,
/// and every read is checked against the end of the bytes.
struct JPEGSegments<Bytes: RandomAccessCollection>: Sequence, IteratorProtocol where Bytes.Element == UInt8, Bytes.Index == Int {
    let bytes: Bytes
    /// Whether the walk goes on after SOS, through the image data.
    let throughImageData: Bool
    /// Where the next marker (or image data) starts.
    private(set) var position: Int
    /// Why the walk stopped before EOI (or SOS); nil while it goes on or after them.
    private(set) var stop: JPEGSegmentStop?
    private var inImageData = false, ended = false

    /// The markers of `bytes` from `position` on (by default just after SOI).
    init(_ bytes: Bytes, from position: Int? = nil, throughImageData: Bool = false) {
        self.bytes = bytes
        self.position = position ?? bytes.startIndex + 2
        self.throughImageData = throughImageData
    }

    /// The markers after the image data that starts at `position` (a first
    /// scan's), through the image data of any later scans.
    init(_ bytes: Bytes, imageDataFrom position: Int) {
        self.init(bytes, from: position, throughImageData: true)
        inImageData = true
    }

    mutating func next() -> JPEGSegment? {
        guard !ended else { return nil }
        if inImageData {
            switch Self.imageDataEnd(in: bytes, from: position) {
            case .marker(let at): position = at
            case .cutOff: return finish(.cutOffImageData)
            }
        }
        switch Self.segment(in: bytes, at: position) {
        case .success(let segment):
            position = segment.end
            if segment.marker == JPEGMarker.sos {
                inImageData = true
                ended = !throughImageData
            }
            if segment.marker == JPEGMarker.eoi { ended = true }
            return segment
        case .failure(let stop):
            return finish(stop)
        }
    }

    private mutating func finish(_ stop: JPEGSegmentStop) -> JPEGSegment? {
        self.stop = stop
        ended = true
        return nil
    }

    /// The marker (and its segment) that starts at `position` in `bytes`,
    /// or why there is none: the rule of every walk, for a reader that
    /// fetches bytes as it goes (StreamedImageExtent) as well as the iterator.
    static func segment(in bytes: Bytes, at position: Int) -> Result<JPEGSegment, JPEGSegmentStop> {
        guard position < bytes.endIndex else { return .failure(.cutOffMarker(missing: 1)) }
        guard bytes[position] == 0xFF else { return .failure(.notAMarker(at: position, byte: bytes[position])) }
        var markerAt = position + 1
        while markerAt < bytes.endIndex && bytes[markerAt] == 0xFF { markerAt += 1 }  // fill bytes
        guard markerAt < bytes.endIndex else { return .failure(.cutOffMarker(missing: 1)) }
        let marker = bytes[markerAt]
        if marker == 0x00 { return .failure(.stuffedZero(at: markerAt - 1)) }
        let lengthAt = markerAt + 1
        if JPEGMarker.standsAlone(marker) {
            return .success(JPEGSegment(marker: marker, start: position, payload: lengthAt..<lengthAt, hasLength: false))
        }
        guard lengthAt + 2 <= bytes.endIndex else {
            return .failure(.cutOffLength(marker, missing: lengthAt + 2 - bytes.endIndex))
        }
        let length = Int(bytes[lengthAt]) << 8 | Int(bytes[lengthAt + 1])
        guard length >= 2 else { return .failure(.badLength(marker, length: length)) }
        guard lengthAt + length <= bytes.endIndex else {
            return .failure(.cutOffSegment(marker, missing: lengthAt + length - bytes.endIndex))
        }
        return .success(JPEGSegment(marker: marker, start: position, payload: (lengthAt + 2)..<(lengthAt + length), hasLength: true))
    }

    /// Where the entropy-coded image data that starts at `position` ends.
    enum ImageDataEnd: Equatable {
        /// At the FF of the marker at `at` (not a stuffed FF 00, a restart marker or a fill byte).
        case marker(at: Int)
        /// The bytes end first; those before `at` are image data whatever
        /// follows (at most a last FF waits for the byte after it).
        case cutOff(at: Int)
    }

    /// Skips image data from `position`: the one rule for where it ends.
    static func imageDataEnd(in bytes: Bytes, from position: Int) -> ImageDataEnd {
        var at = position
        while true {
            guard let ff = bytes[at...].firstIndex(of: 0xFF) else { return .cutOff(at: bytes.endIndex) }
            guard ff + 1 < bytes.endIndex else { return .cutOff(at: ff) }
            let next = bytes[ff + 1]
            if next == 0x00 || JPEGMarker.isRestart(next) {
                at = ff + 2
            } else if next == 0xFF {
                at = ff + 1  // a fill byte before a marker
            } else {
                return .marker(at: ff)
            }
        }
    }
}

/// One marker of a JPEG stream, with its segment when it has one.
struct JPEGSegment: Equatable {
    let marker: UInt8
    /// Where its first FF (fill bytes included) is.
    let start: Int
    /// Where the payload (after the length) lies; empty, just after the
    /// marker byte, for a marker that stands alone.
    let payload: Range<Int>
    /// Whether it has a length (false for TEM, RSTn, SOI, EOI).
    let hasLength: Bool

    /// Just after it: where the next marker or the image data starts.
    var end: Int { payload.upperBound }
}

/// Why there is no marker or segment where a walk of a JPEG stands.
enum JPEGSegmentStop: Error, Equatable {
    /// The byte at `at` should be FF, starting a marker, and is `byte`.
    case notAMarker(at: Int, byte: UInt8)
    /// FF 00, a stuffed data byte, whose FF is at `at`, where a marker should be.
    case stuffedZero(at: Int)
    /// The bytes end before the marker byte: at least `missing` more are needed.
    case cutOffMarker(missing: Int)
    /// The bytes end inside the length of a segment with `marker`.
    case cutOffLength(UInt8, missing: Int)
    /// The bytes end inside the payload of a segment with `marker`.
    case cutOffSegment(UInt8, missing: Int)
    /// A segment with `marker` claims a length below 2, the length's own size.
    case badLength(UInt8, length: Int)
    /// The bytes end inside image data.
    case cutOffImageData
}

/// The marker bytes the walks name.
enum JPEGMarker {
    static let soi: UInt8 = 0xD8
    static let eoi: UInt8 = 0xD9
    static let sos: UInt8 = 0xDA
    static let app1: UInt8 = 0xE1

    /// RST0-RST7, which may come inside image data.
    static func isRestart(_ marker: UInt8) -> Bool { (0xD0...0xD7).contains(marker) }

    /// TEM, RSTn, SOI and EOI have no length.
    static func standsAlone(_ marker: UInt8) -> Bool { marker == 0x01 || (0xD0...0xD9).contains(marker) }
}
