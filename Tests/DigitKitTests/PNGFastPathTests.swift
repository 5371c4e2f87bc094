@_spi(Fuzzing) @testable import DigitKit
import Foundation
import Testing
import TestSupport

/// PNGFastPath (libdeflate, our own unfiltering) must give exactly the
/// pixels of the libpng path, and decline whatever it does not take, so
/// that libpng decodes it or names what is wrong.
@Suite("PNG fast path")
struct PNGFastPathTests {
    /// Every PNG among the fixtures: PngSuite, the real-world, photo,
    /// number, MNIST-sample, format and hostile files.
    static let files: [String] = {
        let root = Fixtures.resources.path
        let all = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        return all.filter { $0.hasSuffix(".png") }.sorted().map { "\(root)/\($0)" }
    }()

    static func bothPaths(_ bytes: [UInt8]) -> (fast: Result<GrayImage, DigitError>, libpng: Result<GrayImage, DigitError>) {
        var libpng = PNGDecoder()
        libpng.usesFastPath = false
        return (Result { () throws(DigitError) in try PNGDecoder().decode(bytes: bytes) },
                Result { () throws(DigitError) in try libpng.decode(bytes: bytes) })
    }

    @Test("gives the libpng path's pixels or errors on every PNG fixture, and takes most of them")
    func agreesWithLibpng() throws {
        #expect(Self.files.count > 600)
        var taken = 0
        for file in Self.files {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
            let (fast, libpng) = Self.bothPaths(bytes)
            switch (fast, libpng) {
            case let (.success(a), .success(b)): #expect(a == b, "\(file)")
            case let (.failure(a), .failure(b)): #expect(a == b, "\(file)")
            default: Issue.record("\(file): fast path \(fast), libpng \(libpng)")
            }
            if try PNGFastPath.decode(bytes, maxPixels: PNGDecoder.defaultMaxPixels) != nil { taken += 1 }
        }
        // The real-world, photo, number and MNIST-sample PNGs are nearly all 8-bit.
        #expect(taken > 450, "the fast path took \(taken) of \(Self.files.count)")
    }

    @Test("every filter type and compression level, grey to RGBA")
    func filterTypes() throws {
        // PngSuite's f0x files use each filter type alone, z0x each compression level.
        for name in ["f00n2c08", "f01n2c08", "f02n2c08", "f03n2c08", "f04n2c08", "f00n0g08", "f01n0g08",
                     "f02n0g08", "f03n0g08", "f04n0g08", "z00n2c08", "z03n2c08", "z06n2c08", "z09n2c08",
                     "basn0g08", "basn2c08", "basn4a08", "basn6a08"] {
            let bytes = [UInt8](try Fixtures.data("pngsuite/\(name).png"))
            #expect(try PNGFastPath.decode(bytes, maxPixels: .max) != nil, "\(name)")
        }
    }

    @Test("image data split over many IDAT chunks decodes as one")
    func splitImageData() throws {
        let original = [UInt8](try Fixtures.data("pngsuite/f04n2c08.png"))
        let whole = try #require(try PNGFastPath.decode(original, maxPixels: .max))
        for piece in [1, 7, 100] {
            let split = Self.resplit(original, piece: piece)
            #expect(split.count > original.count)
            #expect(try PNGFastPath.decode(split, maxPixels: .max) == whole, "pieces of \(piece) bytes")
        }
    }

    /// `png` with its image data rewritten as IDAT chunks of `piece` bytes each.
    static func resplit(_ png: [UInt8], piece: Int) -> [UInt8] {
        var chunks: [(type: [UInt8], data: [UInt8])] = [], position = 8
        while position + 12 <= png.count {
            let length = Int(png[position]) << 24 | Int(png[position + 1]) << 16 | Int(png[position + 2]) << 8 | Int(png[position + 3])
            chunks.append((Array(png[(position + 4)..<(position + 8)]), Array(png[(position + 8)..<(position + 8 + length)])))
            position += 12 + length
        }
        let idat = Array("IDAT".utf8)
        let data = chunks.filter { $0.type == idat }.flatMap(\.data)
        var out = Array(png[0..<8]), wroteData = false
        func write(_ type: [UInt8], _ body: ArraySlice<UInt8>) {
            let n = UInt32(body.count)
            out += [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + type + body
            let crc = CRC32.checksum(type + Array(body))
            out += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        }
        for chunk in chunks {
            if chunk.type != idat { write(chunk.type, chunk.data[...]); continue }
            guard !wroteData else { continue }
            wroteData = true
            for start in stride(from: 0, to: data.count, by: piece) { write(idat, data[start..<min(data.count, start + piece)]) }
        }
        return out
    }

    @Test("declines what it does not take: interlaced, palette, tRNS, 16-bit, over the ceiling")
    func declines() throws {
        for name in ["basi2c08", "basn3p08", "tbbn2c16", "tbrn2c08", "basn2c16", "basn0g04"] {
            let bytes = [UInt8](try Fixtures.data("pngsuite/\(name).png"))
            #expect(try PNGFastPath.decode(bytes, maxPixels: .max) == nil, "\(name)")
        }
        let small = [UInt8](try Fixtures.data("pngsuite/basn2c08.png"))  // 32x32
        #expect(try PNGFastPath.decode(small, maxPixels: 1023) == nil)
        #expect(try PNGFastPath.decode(small, maxPixels: 1024) != nil)
    }

    @Test("a flipped bit in every byte: the same pixels or error as libpng", arguments: ["basn2c08", "f04n2c08", "basn6a08"])
    func flippedBits(_ name: String) throws {
        let original = [UInt8](try Fixtures.data("pngsuite/\(name).png"))
        for position in 8..<original.count {
            var bytes = original
            bytes[position] ^= UInt8(1 << (position % 8))
            let (fast, libpng) = Self.bothPaths(bytes)
            switch (fast, libpng) {
            case let (.success(a), .success(b)): #expect(a == b, "byte \(position)")
            case let (.failure(a), .failure(b)): #expect(a == b, "byte \(position)")
            default: Issue.record("byte \(position): fast path \(fast), libpng \(libpng)")
            }
        }
    }
}
