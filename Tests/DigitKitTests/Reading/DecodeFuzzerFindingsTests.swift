@_spi(Fuzzing) import DigitKit
import Testing
import TestSupport

/// DecodeFuzzer's findings (Fuzz/README.md), each replayed through the
/// checks the fuzzer makes; each is also a seed of Fuzz/corpus.
@Suite("DecodeFuzzer findings")
struct DecodeFuzzerFindingsTests {
    /// Found in 4 minutes by the fuzzer on the code before 0.9.4's reader fix
    /// (Fuzz/corpus/finding-weak-glyph.jpg): a 28x28 JPEG whose ink held a
    /// glyph of weak ink only, which broke "every glyph can be read whole".
    @Test("a glyph of weak ink only in a mutated 28x28 JPEG")
    func weakGlyph() throws {
        let path = Fixtures.path("hostile/decode-fuzzer-weak-glyph.jpg")
        let image = try ImageDecoder(maxPixels: 1 << 20, maxSide: 64).decode(fileAtPath: path)
        _ = NumberReader.candidatePieceCount(image)
        let result = try CommandRunner.digits(["read", path])
        #expect(result.status == 0)
        #expect(result.stdoutLines.count == 1 && result.stderr.isEmpty, "\(result.stdout)\(result.stderr)")
    }
}
