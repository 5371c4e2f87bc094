@testable import DigitKit
import Testing
import TestSupport

/// The PNG fast path's unfiltering and grey conversion against their plain
/// definitions (PNG specification, section 9; Pillow's luma), on rows of
/// every pixel size: PngSuite covers each filter type, but not each type
/// at every pixel size.
@Suite("Scanline filters and grey conversion")
struct ScanlineFilterTests {
    /// Filter `type` undone the way the specification writes it, byte by byte.
    static func reference(_ type: UInt8, row: [UInt8], previous: [UInt8], bytesPerPixel bpp: Int) -> [UInt8] {
        var out = row
        for i in row.indices {
            let a = i >= bpp ? Int(out[i - bpp]) : 0, b = Int(previous[i]), c = i >= bpp ? Int(previous[i - bpp]) : 0
            let predicted: Int
            switch type {
            case 0: predicted = 0
            case 1: predicted = a
            case 2: predicted = b
            case 3: predicted = (a + b) / 2
            default:
                let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                predicted = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
            }
            out[i] = UInt8((Int(row[i]) + predicted) & 255)
        }
        return out
    }

    @Test("every filter type at every pixel size gives the specification's bytes", arguments: 1...4)
    func unfilterMatchesTheSpecification(_ bpp: Int) {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 &* UInt64(bpp)
        func byte() -> UInt8 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        for type in UInt8(0)...4 {
            for pixels in [1, 2, 5, 16, 17, 33, 400] {
                let count = pixels * bpp
                let previous = (0..<count).map { _ in byte() }, row = (0..<count).map { _ in byte() }
                var restored = row
                let defined = restored.withUnsafeMutableBufferPointer { restored in
                    previous.withUnsafeBufferPointer { previous in
                        PNGScanlineFilter.unfilter(type, row: restored.baseAddress!, previous: previous.baseAddress!,
                                                   count: count, bytesPerPixel: bpp)
                    }
                }
                #expect(defined)
                #expect(restored == Self.reference(type, row: row, previous: previous, bytesPerPixel: bpp),
                        "type \(type), \(pixels) pixels of \(bpp) bytes")
            }
        }
    }

    @Test("filter types above 4 are refused")
    func undefinedFilterType() {
        var row: [UInt8] = [1, 2, 3], previous: [UInt8] = [0, 0, 0]
        let defined = row.withUnsafeMutableBufferPointer { row in
            previous.withUnsafeMutableBufferPointer { previous in
                PNGScanlineFilter.unfilter(5, row: row.baseAddress!, previous: previous.baseAddress!, count: 3, bytesPerPixel: 3)
            }
        }
        #expect(!defined)
    }

    @Test("RGB and RGBA rows become Pillow's luma, alpha over white")
    func grayMatchesTheFormula() {
        var state: UInt64 = 7
        var samples: [UInt8] = []
        // Every level in each channel alone, then random colours.
        for level in 0...255 {
            samples += [UInt8(level), 0, 0, 0, UInt8(level), 0, 0, 0, UInt8(level), UInt8(level), UInt8(level), UInt8(level)]
        }
        for _ in 0..<30_000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            samples += [UInt8(truncatingIfNeeded: state >> 40), UInt8(truncatingIfNeeded: state >> 48), UInt8(truncatingIfNeeded: state >> 56)]
        }
        let rgb = GrayConversion.gray(samples: samples, channels: 3, hasAlpha: false)
        let pixels = stride(from: 0, to: samples.count, by: 3).map { Array(samples[$0..<($0 + 3)]) }
        let luma = pixels.map { p -> UInt8 in
            let weighted: Int = 19595 * Int(p[0]) + 38470 * Int(p[1]) + 7471 * Int(p[2])
            return UInt8((weighted + 0x8000) >> 16)
        }
        #expect(rgb == luma)
        let withAlpha = pixels.enumerated().flatMap { index, p in p + [UInt8(index % 256)] }
        let rgba = GrayConversion.gray(samples: withAlpha, channels: 4, hasAlpha: true)
        let overWhite = luma.indices.map { index -> UInt8 in
            let alpha = index % 256
            let blended: Int = Int(luma[index]) * alpha + 255 * (255 - alpha)
            return UInt8((blended + 127) / 255)
        }
        #expect(rgba == overWhite)
    }
}
