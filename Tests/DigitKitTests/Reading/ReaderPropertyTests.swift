import DigitKit
import Testing
import TestSupport

/// The number reader on hundreds of generated drawings (NumberDrawing: 1 to
/// 8 glyphs 10 to 200 pixels tall, both polarities, touching, faint, noisy,
/// tiny canvases), from fixed seeds, through the batch reading `digits read`
/// runs: whatever the drawing, the reader must not stop the process, and
/// every reading must be well-formed (readingProblems).
@Suite("Reader properties on generated drawings")
struct ReaderPropertyTests {
    /// The drawing of `seed`, its bytes from a SplitMix64 generator.
    static func drawing(seed: UInt64) -> NumberDrawing {
        var generator = SplitMix64(seed: seed)
        return NumberDrawing { UInt8(truncatingIfNeeded: generator.next()) }
    }

    /// Reads the drawings of `seeds` with `length` in one batch run and
    /// returns each problem found, naming its seed.
    static func problems(seeds: Range<UInt64>, length: Int?, reader: NumberReader) throws -> [String] {
        let drawings = seeds.map { (seed: $0, drawing: drawing(seed: $0)) }
        let inputs = drawings.map { ClassificationInput.image($0.drawing.image, name: "seed \($0.seed)") }
        var problems: [String] = []
        var results = 0
        try reader.read(inputs, length: length, options: BatchOptions(batchSize: 16, workers: 2)) { result in
            results += 1
            let (seed, image) = (drawings[result.position].seed, drawings[result.position].drawing.image)
            guard let reading = result.reading else {
                problems.append("seed \(seed): failed: \(result.error?.message ?? "")")
                return
            }
            problems += readingProblems(reading, width: image.width, height: image.height, length: length)
                .map { "seed \(seed), length \(length.map(String.init) ?? "any"): \($0)" }
        }
        if results != inputs.count { problems.append("\(results) results for \(inputs.count) drawings") }
        return problems
    }

    @Test("200 drawings read with any length, and 40 with each of lengths 1, 3 and 8: no trap, every reading well-formed")
    func wellFormed() throws {
        let reader = try NumberFixtures.reader()
        var problems = try Self.problems(seeds: 0..<200, length: nil, reader: reader)
        for (index, length) in [1, 3, 8].enumerated() {
            let first = UInt64(200 + index * 40)
            problems += try Self.problems(seeds: first..<(first + 40), length: length, reader: reader)
        }
        #expect(problems.isEmpty, "\(problems.prefix(20))")
    }

    @Test("the same without the line model (wide glyphs cut for the digit model): 60 with any length, 40 with length 4")
    func wellFormedCutting() throws {
        let reader = try NumberFixtures.cuttingReader()
        let problems = try Self.problems(seeds: 320..<380, length: nil, reader: reader)
            + Self.problems(seeds: 380..<420, length: 4, reader: reader)
        #expect(problems.isEmpty, "\(problems.prefix(20))")
    }

    @Test("the drawings cover what they are meant to: every glyph count, tiny canvases, both polarities")
    func coverage() {
        let drawings = (0..<200).map { Self.drawing(seed: UInt64($0)) }
        #expect(Set(drawings.map(\.glyphCount)) == Set(0...8))
        #expect(drawings.contains { $0.image.width <= 3 && $0.image.height <= 3 })
        #expect(drawings.contains { $0.image.height >= 150 })
        let darkBackground = drawings.filter { $0.image.pixels.reduce(0) { $0 + Int($1) } < 128 * $0.image.pixels.count }
        #expect(darkBackground.count > 40 && darkBackground.count < 160)
    }
}
