@testable import DigitKit
import Foundation
import Testing
import TestSupport

/// The one walk of each container format: PNGChunks over PNG chunks,
/// JPEGSegments over JPEG markers. Each outcome is checked on real bytes,
/// and so is where each walk stops.
@Suite("Container lexers")
struct ContainerLexerTests {
    static func fixture(_ name: String) throws -> [UInt8] { [UInt8](try Fixtures.data(name)) }

    /// A chunk as it is stored: length, type, data, CRC (the CRC is not checked by the lexer).
    static func chunk(_ type: String, _ data: [UInt8], length: UInt32? = nil) -> [UInt8] {
        let length = length ?? UInt32(data.count)
        let header: [UInt8] = [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
        let crc = CRC32.checksum(Array(type.utf8) + data)
        return header + Array(type.utf8) + data + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
    }

    static let ihdr = chunk("IHDR", [0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0])

    static func names(_ chunks: [PNGChunk]) -> [String] {
        chunks.map { String(decoding: $0.type.array, as: UTF8.self) }
    }

    // MARK: PNGChunks

    @Test("walks a well-formed PNG from IHDR to IEND, each chunk's data within the file")
    func pngFixture() throws {
        let png = try Self.fixture("formats/orientation-6.png")
        var chunks = PNGChunks(png)
        let all = Array(IteratorSequence(chunks))
        #expect(all.first?.type == .IHDR && all.first?.start == 8 && all.first?.data == 16..<29)
        #expect(all.last?.type == .IEND && all.last?.data.isEmpty == true && all.last?.end == png.count)
        #expect(all.contains { $0.type == .IDAT } && all.contains { $0.type == .eXIf })
        for (chunk, next) in zip(all, all.dropFirst()) { #expect(chunk.end == next.start) }
        while chunks.next() != nil {}
        #expect(chunks.stop == nil)
    }

    @Test("yields zero-length chunks and nothing after IEND")
    func zeroLengthAndTrailingBytes() {
        let png = ImageFormat.pngSignature + Self.ihdr + Self.chunk("abCd", []) + Self.chunk("IDAT", [1, 2])
            + Self.chunk("IEND", []) + Array("trailing bytes".utf8)
        var chunks = PNGChunks(png)
        let all = Array(IteratorSequence(chunks))
        #expect(Self.names(all) == ["IHDR", "abCd", "IDAT", "IEND"])
        #expect(all[1].data == 41..<41 && all[1].end == 45)
        #expect(all[2].data == 53..<55)
        while chunks.next() != nil {}
        #expect(chunks.stop == nil)
    }

    @Test("stops at a chunk whose length runs past the end, saying how many bytes it lacks")
    func lengthPastTheEnd() {
        let png = ImageFormat.pngSignature + Self.ihdr + Array(Self.chunk("IDAT", [], length: 100).prefix(8)) + [1, 2, 3]
        var chunks = PNGChunks(png)
        #expect(Self.names(Array(IteratorSequence(chunks))) == ["IHDR"])
        while chunks.next() != nil {}
        // 33 + 12 + 100 bytes make the whole chunk; 33 + 8 + 3 are there.
        #expect(chunks.stop == .cutOffChunk(.IDAT, missing: 101))
        #expect(throws: DigitError(.invalidImage, "truncated PNG: the file ends inside the IDAT chunk")) {
            try PNGStructure.check(png)
        }
    }

    @Test("a length over 2^31 - 1 is refused as such, even when the bytes end first")
    func lengthOverInt32() {
        let png = ImageFormat.pngSignature + Self.ihdr + Self.chunk("abCd", [], length: 0x8000_0000)
        var chunks = PNGChunks(png)
        while chunks.next() != nil {}
        #expect(chunks.stop == .oversized(PNGChunkType("abCd"), length: 0x8000_0000))
        #expect(throws: DigitError(.invalidImage, "corrupt PNG: the abCd chunk claims 2147483648 bytes")) {
            try PNGStructure.check(png)
        }
        // 2^31 - 1 itself is a length PNG allows: only the bytes are missing.
        let largest = ImageFormat.pngSignature + Self.ihdr + Self.chunk("abCd", [], length: 0x7FFF_FFFF)
        #expect(PNGChunks.chunk(in: largest, at: 33) == .failure(.cutOffChunk(PNGChunkType("abCd"), missing: 0x7FFF_FFFF)))
    }

    @Test("a header cut off, or no header at all after the last chunk, is a cut-off header")
    func truncatedInTheHeader() {
        let whole = ImageFormat.pngSignature + Self.ihdr + Self.chunk("IDAT", [1])
        for (extra, missing) in [([UInt8](), 8), ([0, 0, 0], 5), ([0, 0, 0, 0, 0x49, 0x45, 0x4E], 1)] {
            var chunks = PNGChunks(whole + extra)
            #expect(Self.names(Array(IteratorSequence(chunks))) == ["IHDR", "IDAT"])
            while chunks.next() != nil {}
            #expect(chunks.stop == .cutOffHeader(missing: missing))
        }
        #expect(throws: DigitError(.invalidImage, "truncated PNG: the file ends before the IEND chunk")) {
            try PNGStructure.check(whole + [0, 0, 0])
        }
        #expect(PNGChunks.chunk(in: ImageFormat.pngSignature, at: 8) == .failure(.cutOffHeader(missing: 8)))
    }

    @Test("a chunk missing only its CRC is cut off, not whole")
    func missingCRC() {
        let png = ImageFormat.pngSignature + Self.ihdr + Array(Self.chunk("IEND", []).prefix(10))
        #expect(PNGChunks.chunk(in: png, at: 33) == .failure(.cutOffChunk(.IEND, missing: 2)))
    }

    @Test("starts where it is told: the fast path walks from just after IHDR")
    func startsAtAPosition() throws {
        let png = try Self.fixture("formats/orientation-1.png")
        let fromStart = Array(PNGChunks(png).dropFirst())
        let afterHeader = Array(PNGChunks(png, from: 33))
        #expect(fromStart == afterHeader && !afterHeader.isEmpty)
    }

    @Test("names chunk types for messages, and tells letters from other bytes")
    func chunkTypeNames() {
        #expect(PNGChunkType.IDAT.chunkName == "the IDAT chunk")
        #expect(PNGChunkType(0x49, 0x44, 0x41, 0x00).chunkName == "a chunk with an invalid type")
        #expect(PNGChunkType.IDAT.isCritical && !PNGChunkType.eXIf.isCritical)
    }

    // MARK: JPEGSegments

    static let soi: [UInt8] = [0xFF, 0xD8]
    static let app0: [UInt8] = [0xFF, 0xE0, 0x00, 0x04, 0x4A, 0x46]
    static let sos: [UInt8] = [0xFF, 0xDA, 0x00, 0x03, 0x01]

    static func markers(_ segments: [JPEGSegment]) -> [UInt8] { segments.map(\.marker) }

    @Test("walks a well-formed JPEG's header up to SOS, each payload after its length")
    func jpegHeader() throws {
        let jpeg = try Self.fixture("formats/orientation-6.jpg")
        var walk = JPEGSegments(jpeg)
        let header = Array(IteratorSequence(walk))
        #expect(Self.markers(header) == [0xE0, 0xE1, 0xDB, 0xC0, 0xC4, 0xC4, 0xDA])
        #expect(header[1].start == 20 && header[1].payload == 24..<68 && header[1].hasLength)
        #expect(jpeg[header[1].payload].starts(with: Array("Exif".utf8)))
        for (segment, next) in zip(header, header.dropFirst()) { #expect(segment.end == next.start) }
        while walk.next() != nil {}
        #expect(walk.stop == nil)
    }

    @Test("goes through the image data of every scan to EOI when told to")
    func jpegThroughImageData() throws {
        let jpeg = try Self.fixture("formats/gray-progressive-q40.jpg")
        var walk = JPEGSegments(jpeg, throughImageData: true)
        let all = Array(IteratorSequence(walk))
        #expect(all.filter { $0.marker == JPEGMarker.sos }.count == 6)
        #expect(all.last?.marker == JPEGMarker.eoi && all.last?.start == 449 && all.last?.end == jpeg.count)
        #expect(all.last?.hasLength == false)
        while walk.next() != nil {}
        #expect(walk.stop == nil)
        #expect(JPEGStructure.scanCount(jpeg, stoppingAfter: 100) == 6)
    }

    @Test("skips FF fill bytes before a marker, in the header and in image data")
    func fillBytes() {
        let jpeg = Self.soi + [0xFF, 0xFF, 0xFF] + Self.app0 + Self.sos + [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xFF, 0xFF, 0xD9]
        let all = Array(IteratorSequence(JPEGSegments(jpeg, throughImageData: true)))
        #expect(Self.markers(all) == [0xE0, 0xDA, 0xD9])
        #expect(all[0].start == 2 && all[0].payload == 9..<11)
        // The image data ends at the FF just before D9: the fill bytes before it are data.
        #expect(JPEGSegments<[UInt8]>.imageDataEnd(in: jpeg, from: 16) == .marker(at: 22))
        #expect(all[2].start == 22)
    }

    @Test("TEM, RSTn and a repeated SOI stand alone, without a length; EOI ends the walk")
    func standaloneMarkers() {
        let jpeg = Self.soi + [0xFF, 0x01, 0xFF, 0xD3, 0xFF, 0xD8] + Self.app0 + [0xFF, 0xD9, 0xFF, 0xE0]
        var walk = JPEGSegments(jpeg)
        let all = Array(IteratorSequence(walk))
        #expect(Self.markers(all) == [0x01, 0xD3, 0xD8, 0xE0, 0xD9])
        #expect(all[0].payload == 4..<4 && !all[0].hasLength && all[2].end == 8)
        while walk.next() != nil {}
        #expect(walk.stop == nil)
        #expect(throws: DigitError(.invalidImage, "corrupt JPEG: the file ends (EOI marker) before any image data")) {
            try JPEGStructure.headerSegments(jpeg)
        }
        // Restart markers and stuffed bytes are image data; TEM after SOS is a marker.
        let scan = Self.soi + Self.sos + [0x01, 0xFF, 0xD0, 0x02, 0xFF, 0x00, 0xFF, 0x01]
        #expect(JPEGSegments<[UInt8]>.imageDataEnd(in: scan, from: 7) == .marker(at: 13))
    }

    @Test("a segment length below 2 is refused, naming the segment")
    func lengthBelowTwo() {
        let jpeg = Self.soi + [0xFF, 0xDB, 0x00, 0x01, 0x00, 0x00]
        #expect(JPEGSegments.segment(in: jpeg, at: 2) == .failure(.badLength(0xDB, length: 1)))
        #expect(throws: DigitError(.invalidImage, "corrupt JPEG: the DQT segment claims 1 bytes")) {
            try JPEGStructure.headerSegments(jpeg)
        }
        let zero = Self.soi + Self.app0 + Self.sos + [0x12, 0xFF, 0xC4, 0x00, 0x00, 0xFF, 0xD9]
        #expect(JPEGStructure.walkAfterFirstScan(zero) { _ in true } == .corrupt)
    }

    @Test("a segment cut off in its length or payload says which, and how many bytes it lacks")
    func truncatedSegment() {
        let jpeg = Self.soi + Self.app0
        #expect(JPEGSegments.segment(in: Array(jpeg.prefix(5)), at: 2) == .failure(.cutOffLength(0xE0, missing: 1)))
        #expect(JPEGSegments.segment(in: Array(jpeg.prefix(7)), at: 2) == .failure(.cutOffSegment(0xE0, missing: 1)))
        #expect(JPEGSegments.segment(in: Array(jpeg.prefix(3)), at: 2) == .failure(.cutOffMarker(missing: 1)))
        #expect(JPEGSegments.segment(in: jpeg, at: 8) == .failure(.cutOffMarker(missing: 1)))
        #expect(throws: DigitError(.invalidImage, "truncated JPEG: the file ends inside the APP0 segment")) {
            try JPEGStructure.headerSegments(Array(jpeg.prefix(7)))
        }
        #expect(throws: DigitError(.invalidImage, "truncated JPEG: the file ends before the image data (SOS segment)")) {
            try JPEGStructure.headerSegments(jpeg + [0xFF, 0xFF])
        }
        var scan = JPEGSegments(Self.soi + Self.sos + [0x12, 0x34, 0xFF], throughImageData: true)
        #expect(Self.markers(Array(IteratorSequence(scan))) == [0xDA])
        while scan.next() != nil {}
        #expect(scan.stop == .cutOffImageData)
    }

    @Test("a byte that starts no marker, or a stuffed FF 00, is not a marker between segments")
    func notAMarker() {
        let stray = Self.soi + Self.app0 + [0x42]
        #expect(JPEGSegments.segment(in: stray, at: 8) == .failure(.notAMarker(at: 8, byte: 0x42)))
        #expect(throws: DigitError(.invalidImage, "corrupt JPEG: byte 8 should start a marker but is 0x42")) {
            try JPEGStructure.headerSegments(stray)
        }
        let stuffed = Self.soi + [0xFF, 0xFF, 0x00]
        #expect(JPEGSegments.segment(in: stuffed, at: 2) == .failure(.stuffedZero(at: 3)))
        #expect(throws: DigitError(.invalidImage, "corrupt JPEG: byte 3 should start a marker but is 0xFF00")) {
            try JPEGStructure.headerSegments(stuffed)
        }
    }

    @Test("the walk starts after SOI; a file without one is no JPEG")
    func startOfImage() throws {
        let jpeg = try Self.fixture("formats/gray-q90.jpg")
        #expect(JPEGSegments(jpeg).first(where: { _ in true })?.start == 2)
        // From 0, SOI itself is the first marker, one that stands alone.
        #expect(JPEGSegments(jpeg, from: 0).first(where: { _ in true }) == JPEGSegment(marker: 0xD8, start: 0, payload: 2..<2, hasLength: false))
        #expect(throws: DigitError(.invalidImage, "not a JPEG file (no SOI marker)")) {
            try JPEGStructure.headerSegments(Array(jpeg.dropFirst()))
        }
    }

    @Test("the stream splitter ends each picture where the lexers say, and asks for no byte more")
    func streamSplitting() throws {
        let jpeg = try Self.fixture("formats/gray-q90.jpg"), png = try Self.fixture("formats/orientation-6.png")
        #expect(StreamedImageExtent.secondImageOffset(in: jpeg + png) == jpeg.count)
        #expect(StreamedImageExtent.secondImageOffset(in: png + jpeg) == png.count)
        let filled = Self.soi + Self.app0 + Self.sos + [0x12, 0xFF, 0xD0, 0xFF, 0x00, 0xFF, 0xFF, 0xD9]
        #expect(StreamedImageExtent.secondImageOffset(in: filled + jpeg) == filled.count)
        var extent = StreamedImageExtent(reader: ByteReader(bytes: Array(jpeg.dropLast()), name: "input"), maxBytes: 1 << 20)
        #expect(throws: DigitError(.invalidImage, "truncated JPEG: the stream ends inside the image data")) { try extent.next(.jpeg) }
        var stray = StreamedImageExtent(reader: ByteReader(bytes: Self.soi + Self.app0 + [0x05], name: "input"), maxBytes: 1 << 20)
        #expect(throws: DigitError(.invalidImage, "corrupt JPEG: byte 8 should start a marker but is 0x5")) { try stray.next(.jpeg) }
        // A repeated SOI stands alone here too, as in the header check; FF 00 starts no segment.
        let repeated = Self.soi + Self.soi + Self.app0 + Self.sos + [0x12, 0xFF, 0xD9]
        #expect(StreamedImageExtent.secondImageOffset(in: repeated + jpeg) == repeated.count)
        var stuffed = StreamedImageExtent(reader: ByteReader(bytes: Self.soi + [0xFF, 0x00, 0x00, 0x04], name: "input"), maxBytes: 1 << 20)
        #expect(throws: DigitError(.invalidImage, "corrupt JPEG: byte 2 should start a marker but is 0xFF00")) { try stuffed.next(.jpeg) }
    }

    @Test("the stream splitter walks a run of fill bytes once: a long run ends the picture or meets the size limit",
          .timeLimit(.minutes(1)))
    func longFillRun() throws {
        let jpeg = try Self.fixture("formats/gray-q90.jpg")
        let filled = Self.soi + [UInt8](repeating: 0xFF, count: 200_000) + Self.app0 + Self.sos + [0x12, 0xFF, 0xD9]
        #expect(StreamedImageExtent.secondImageOffset(in: filled + jpeg) == filled.count)
        let endless = Self.soi + [UInt8](repeating: 0xFF, count: 2 << 20)
        var extent = StreamedImageExtent(reader: ByteReader(bytes: endless, name: "input"), maxBytes: 1 << 20)
        #expect(throws: DigitError(.imageTooLarge, "image is larger than the limit of 1048576 bytes")) { try extent.next(.jpeg) }
    }

    @Test("the stream splitter reads a PNG chunk by chunk: cut off, too large, or whole")
    func pngStreamSplitting() throws {
        func split(_ bytes: [UInt8], maxBytes: Int = 1 << 20) throws(DigitError) -> [UInt8] {
            var extent = StreamedImageExtent(reader: ByteReader(bytes: bytes, name: "input"), maxBytes: maxBytes)
            return try extent.next(.png)
        }
        let png = try Self.fixture("formats/orientation-6.png")
        #expect(try split(png + png) == png)
        #expect(throws: DigitError(.invalidImage, "truncated PNG: the stream ends inside the IDAT chunk")) {
            try split(Array(png.prefix(200)))
        }
        #expect(throws: DigitError(.invalidImage, "truncated PNG: the stream ends before the IEND chunk")) {
            try split(Array(png.prefix(png.count - 12 + 3)))
        }
        // The IDAT's 651 bytes would pass the limit: refused before they are read.
        #expect(throws: DigitError(.imageTooLarge, "image is larger than the limit of 300 bytes")) {
            try split(png, maxBytes: 300)
        }
        let oversized = ImageFormat.pngSignature + Self.ihdr + Array(Self.chunk("abCd", [], length: 0x8000_0000).prefix(8))
        #expect(throws: DigitError(.invalidImage, "corrupt PNG: the abCd chunk claims 2147483648 bytes")) {
            try split(oversized)
        }
    }
}
