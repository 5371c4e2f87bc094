@testable import DigitKit
import Foundation
import Testing
import TestSupport

/// Nothing a header says is allocated before the file shows it can be
/// true, decodes hold their buffers within a byte budget, and image data
/// going on beyond its picture is refused where it ends.
@Suite("Decode memory")
struct DecodeMemoryTests {
    @Test("a header promising a huge picture over a few bytes of data is refused before any allocation")
    func notEnoughImageData() throws {
        let bomb = PNGBombs.tiny16
        #expect(bomb.count == 69)
        // No byte may be reserved: the data cannot fill the picture.
        var decoder = ImageDecoder()
        decoder.memoryBudget = DecodeMemoryBudget(perPicture: 1, total: 1)
        #expect(throws: DigitError(.invalidImage, "corrupt PNG: not enough image data: 12 bytes cannot inflate to the 536879104 bytes that the 8192x8192 picture needs")) {
            try decoder.decode(bytes: bomb)
        }
    }

    @Test("a picture over the per-picture budget is refused with its size and the limit")
    func overTheBudget() throws {
        var decoder = ImageDecoder()
        decoder.memoryBudget = DecodeMemoryBudget(perPicture: 16 << 10, total: 16 << 10)
        let rgba16 = PNGBombs.png(width: 64, height: 64, depth: 16, colorType: 6, imageData: PNGBombs.zlibZeros(64 * (1 + 64 * 8)))
        #expect(throws: DigitError(.imageTooLarge, "decoding the 64x64 16-bit RGBA picture needs 36 KiB, over the limit of 16 KiB per picture")) {
            try decoder.decode(bytes: rgba16)
        }
        let grey8 = PNGBombs.png(width: 200, height: 200, depth: 8, colorType: 0, imageData: PNGBombs.zlibZeros(200 * 201))
        #expect(throws: DigitError(.imageTooLarge, "decoding the 200x200 8-bit grey picture needs 79 KiB, over the limit of 16 KiB per picture")) {
            try decoder.decode(bytes: grey8)
        }
        let jpeg = [UInt8](try Fixtures.data("formats/baseline-q90-420.jpg"))
        #expect(try decoder.decode(bytes: jpeg).width == 64, "64x48: 12 KiB of RGB and grey")
        // A progressive JPEG's coefficients count too: 75x53x4 bytes of samples and 75x53x3x2 of coefficients.
        let progressive = [UInt8](try Fixtures.data("formats/progressive-q85-420.jpg"))
        #expect(throws: DigitError(.imageTooLarge, "decoding the 75x53 RGB picture needs 39 KiB, over the limit of 16 KiB per picture")) {
            try decoder.decode(bytes: progressive)
        }
        decoder.memoryBudget = DecodeMemoryBudget(perPicture: 1 << 20, total: 1 << 20)
        #expect(try decoder.decode(bytes: rgba16).pixels.allSatisfy { $0 == 255 }, "transparent black over white")
        #expect(try decoder.decode(bytes: grey8).pixels.allSatisfy { $0 == 0 })
        #expect(decoder.memoryBudget.heldBytes == 0)
    }

    @Test("a decode waits while others hold the budget, and goes on when they release it")
    func waitsForTheBudget() throws {
        let budget = DecodeMemoryBudget(perPicture: 100, total: 150)
        let entered = DispatchSemaphore(value: 0), leave = DispatchSemaphore(value: 0), secondDone = DispatchSemaphore(value: 0)
        // Threads of their own, not the global queue: with hundreds of tests
        // running side by side its threads can all be taken, and a block
        // queued there may not start within the waits below.
        Thread {
            try? budget.withReservation(100, for: "first") { () throws(DigitError) in
                entered.signal()
                leave.wait()
            }
        }.start()
        try #require(entered.wait(timeout: .now() + 10) == .success)
        Thread {
            _ = try? budget.withReservation(100, for: "second") { () throws(DigitError) in secondDone.signal() }
        }.start()
        #expect(secondDone.wait(timeout: .now() + 0.5) == .timedOut, "100 + 100 is over the 150 of all together")
        leave.signal()
        #expect(secondDone.wait(timeout: .now() + 10) == .success)
        #expect(throws: DigitError(.imageTooLarge, "decoding the third picture needs 101 bytes, over the limit of 100 bytes per picture")) {
            try budget.withReservation(101, for: "third") { () throws(DigitError) in }
        }
    }

    @Test("image data going on far beyond the picture is refused before it is inflated")
    func farTooMuchImageData() throws {
        // A 1x1 picture whose data inflates to 1 GiB: 1 MB of compressed data.
        let bomb = PNGBombs.oversized(inflated: 1 << 30)
        let started = Date()
        #expect(throws: DigitError(.invalidImage, "corrupt PNG: too much image data: \(bomb.count - 57) bytes, far more than the 1x1 picture holds")) {
            try ImageDecoder().decode(bytes: bomb)
        }
        #expect(Date().timeIntervalSince(started) < 1)
    }

    @Test("incompressible rows written with fixed codes only, as small encoders do, are no bomb")
    func fixedCodeNoise() throws {
        // 300x300 grey noise: the image data comes out about 5% longer than the rows.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func noise() -> UInt8 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(state >> 56)
        }
        var rows: [UInt8] = []
        for _ in 0..<300 { rows += [0] + (0..<300).map { _ in noise() } }
        let imageData = FixedCodeDeflate.zlib(rows)
        #expect(imageData.count > rows.count * 104 / 100)
        let png = PNGBombs.png(width: 300, height: 300, depth: 8, colorType: 0, imageData: imageData)
        let image = try ImageDecoder().decode(bytes: png)
        #expect(image.width == 300 && image.height == 300)
        #expect(image.pixels == rows.enumerated().filter { $0.offset % 301 != 0 }.map(\.element))
    }

    @Test("image data going on beyond the picture is refused where the picture ends")
    func tooMuchImageData() throws {
        // 300x300 grey needs 90,300 bytes; these inflate to 64 MiB in about 64 KB,
        // within what the compressed size allows: only inflating shows it.
        let bomb = PNGBombs.oversized(width: 300, height: 300, inflated: 64 << 20)
        let started = Date()
        #expect(throws: DigitError(.invalidImage, "corrupt PNG: too much image data: it goes on beyond the 300x300 picture")) {
            try ImageDecoder().decode(bytes: bomb)
        }
        #expect(Date().timeIntervalSince(started) < 1)
    }

    @Test("a JPEG of more scans than the limit is refused before it is decoded")
    func tooManyScans() throws {
        // 8x8 grey, progressive: DC, then each AC coefficient alone, then refined: 127 scans.
        let jpeg = [UInt8](try Fixtures.data("hostile/jpeg-127-scans.jpg"))
        #expect(JPEGStructure.scanCount(jpeg, stoppingAfter: 1000) == 127)
        #expect(throws: DigitError(.invalidImage, "JPEG has more than 100 scans, the most digits decodes (encoders write about 10)")) {
            try ImageDecoder().decode(bytes: jpeg)
        }
        let progressive = [UInt8](try Fixtures.data("formats/cmyk-progressive-q70.jpg"))
        #expect(JPEGStructure.scanCount(progressive, stoppingAfter: 1000) < 20)
    }
}
