import DigitKit
import Foundation
import Testing
import TestSupport

@Suite("ASCII renderer")
struct AsciiRendererTests {
    @Test("draws 28 rows of 56 characters, background blank and full ink '@'")
    func drawsTheTensor() throws {
        let sample = try #require(MNISTSample.all.first)
        let art = AsciiRenderer().render(sample.referenceTensor)
        let lines = art.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 28)
        #expect(lines.allSatisfy { $0.count == 56 })
        let values = sample.referenceTensor.values
        for (i, value) in values.enumerated() {
            let glyph = Array(lines[i / 28])[(i % 28) * 2]
            let intensity = DigitTensor.intensity(ofNormalized: value)
            if intensity == 0 { #expect(glyph == " ") }
            if intensity == 1 { #expect(glyph == "@") }
        }
        #expect(art.contains("@"))
    }

    @Test("glyphs get darker monotonically with intensity")
    func rampIsMonotonic() {
        let renderer = AsciiRenderer()
        let levels = stride(from: Float(0), through: 1, by: 0.01).map { renderer.ramp.firstIndex(of: renderer.glyph(forIntensity: $0))! }
        #expect(levels == levels.sorted())
        #expect(levels.first == 0 && levels.last == renderer.ramp.count - 1)
    }

    @Test("--values prints the 784 numbers, each within 5e-5 of the tensor")
    func valuesRoundTrip() throws {
        let sample = try #require(MNISTSample.all.first)
        let text = AsciiRenderer().renderValues(sample.referenceTensor)
        let numbers = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map { Float(String($0))! }
        #expect(numbers.count == 784)
        #expect(zip(numbers, sample.referenceTensor.values).allSatisfy { abs($0 - $1) <= 5e-5 })
        #expect(text.split(separator: "\n").count == 28)
    }
}
