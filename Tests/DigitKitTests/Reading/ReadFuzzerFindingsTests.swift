import DigitKit
import Testing
import TestSupport

/// ReadFuzzer's findings (Fuzz/README.md), each read as the fuzzer reads
/// its bytes: the first byte may ask for a length and chooses the reader,
/// the rest drive NumberDrawing. Each input is also a seed of
/// Fuzz/read-corpus.
@Suite("ReadFuzzer findings")
struct ReadFuzzerFindingsTests {
    /// The reading of the fuzzer input `bytes`, checked as the fuzzer checks it.
    static func problems(_ bytes: [UInt8]) throws -> [String] {
        let length = bytes[0] % 4 == 0 ? 1 + Int(bytes[0] / 8) % 9 : nil
        let reader = bytes[0] & 4 == 0 ? try NumberFixtures.reader() : try NumberFixtures.cuttingReader()
        var offset = 1
        let drawing = NumberDrawing {
            defer { offset += 1 }
            return offset < bytes.count ? bytes[offset] : 0
        }
        var problems: [String] = []
        try reader.read([.image(drawing.image, name: "finding")], length: length, options: BatchOptions(batchSize: 1, workers: 1)) { result in
            guard let reading = result.reading else { return problems.append("failed: \(result.error?.message ?? "")") }
            problems += readingProblems(reading, width: drawing.image.width, height: drawing.image.height, length: length)
        }
        return problems
    }

    /// Found in seconds by the fuzzer built on the code before the fix (read-corpus/finding-no-reading):
    /// a glyph with no reading at all stopped the process in PieceCountChoice.
    @Test("a glyph without any reading (the fuzzer's first finding, on the code before the fix)")
    func glyphWithoutReading() throws {
        let bytes: [UInt8] = [
            0xad, 0x92, 0x3f, 0x8a, 0xa5, 0x6d, 0xcd, 0x5f, 0x5b, 0x14, 0xd2, 0xd0,
            0x27, 0x6c, 0x05, 0x85, 0x21, 0xe6, 0x15, 0xbc, 0xdc, 0xcc, 0x2c, 0x31,
            0xf7, 0x2f, 0x88, 0x7b, 0x01, 0x9c, 0xf3, 0x04, 0x08, 0x19, 0x70, 0x57,
            0xa6, 0x60, 0xe0, 0xfa, 0x0c, 0x68, 0xce, 0x74, 0xec, 0x9b, 0x07, 0x75,
            0xa6, 0x6e, 0x59, 0x02, 0x38, 0x14, 0xd8, 0xb6, 0x81, 0xca, 0xed, 0x51,
            0x30, 0xe7, 0x4d, 0xf6, 0x27, 0x4f, 0x08, 0x9c, 0x9d,
        ]
        #expect(try Self.problems(bytes) == [])
    }
}
