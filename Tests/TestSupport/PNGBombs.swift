@testable import DigitKit
import CZlib

/// PNGs whose headers or image data ask for far more than they are, made
/// at test time: a zlib stream of many zeros is one compressed segment of
/// zeros (flushed with Z_FULL_FLUSH, so that it stands alone) repeated, so
/// that even a stream inflating to gigabytes costs little to make.
package enum PNGBombs {
    /// 69 bytes: IHDR 8192x8192 16-bit RGBA, 100 zero bytes of image data.
    package static var tiny16: [UInt8] {
        // zlib's compress() of 100 zeros.
        png(width: 8192, height: 8192, depth: 16, colorType: 6,
            imageData: [0x78, 0x9C, 0x63, 0x60, 0xA0, 0x3D, 0x00, 0x00, 0x00, 0x64, 0x00, 0x01])
    }

    /// About 520 KB: a valid 8192x8192 16-bit RGBA picture, all zeros.
    package static var valid16: [UInt8] {
        png(width: 8192, height: 8192, depth: 16, colorType: 6, imageData: zlibZeros((1 + 8192 * 8) * 8192))
    }

    /// A 1x1 8-bit grey picture whose image data inflates to `inflated` zero bytes.
    package static func oversized(width: Int = 1, height: Int = 1, inflated: Int) -> [UInt8] {
        png(width: width, height: height, depth: 8, colorType: 0, imageData: zlibZeros(inflated))
    }

    /// A PNG of IHDR, one IDAT and IEND.
    package static func png(width: Int, height: Int, depth: UInt8, colorType: UInt8, imageData: [UInt8]) -> [UInt8] {
        let header = bigEndian(width) + bigEndian(height) + [depth, colorType, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", header) + chunk("IDAT", imageData) + chunk("IEND", [])
    }

    package static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(data.count) + typed + bigEndian(Int(CRC32.checksum(typed)))
    }

    package static func bigEndian(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// A zlib stream of `count` zero bytes.
    package static func zlibZeros(_ count: Int) -> [UInt8] {
        let segmentSize = 1 << 20
        let segment = rawDeflateZeros(min(count, segmentSize), final: false)
        var stream: [UInt8] = [0x78, 0xDA]
        stream.reserveCapacity(count / segmentSize * segment.count + 1024)
        for _ in 0..<(count / segmentSize) { stream += segment }
        if count % segmentSize > 0 { stream += rawDeflateZeros(count % segmentSize, final: false) }
        // An empty final block with fixed codes, then the Adler-32 of the zeros (a = 1, b = count).
        stream += [0x03, 0x00]
        return stream + bigEndian((count % 65521) << 16 | 1)
    }

    /// Raw deflate blocks of `count` zeros, ending on a byte boundary, with
    /// no reference to what came before (Z_FULL_FLUSH).
    private static func rawDeflateZeros(_ count: Int, final: Bool) -> [UInt8] {
        var stream = z_stream()
        deflateInit2_(&stream, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        defer { deflateEnd(&stream) }
        var input = [UInt8](repeating: 0, count: count)
        var output = [UInt8](repeating: 0, count: count / 100 + 1024)
        let produced = input.withUnsafeMutableBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                stream.next_in = input.baseAddress
                stream.avail_in = UInt32(input.count)
                stream.next_out = output.baseAddress
                stream.avail_out = UInt32(output.count)
                deflate(&stream, final ? Z_FINISH : Z_FULL_FLUSH)
                return output.count - Int(stream.avail_out)
            }
        }
        return Array(output[0..<produced])
    }
}
