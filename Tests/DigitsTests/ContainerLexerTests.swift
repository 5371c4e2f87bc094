@testable import DigitKit
import Foundation
import Testing

/// The one walk of each container format: PNGChunks over PNG chunks.
/// Each outcome is checked on real bytes, and so is where each walk stops.
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
}
