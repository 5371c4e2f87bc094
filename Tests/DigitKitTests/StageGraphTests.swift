@testable import DigitKit
import Foundation
import Testing
import TestSupport

/// The MNIST pipeline's stages alone (`Sources/DigitKit/Preprocessing/Stages`):
/// each given a small constructed input gives the expected output and
/// records the expected line in the analysis.
@Suite("Pipeline stages")
struct StageGraphTests {
    /// A `width`x`height` raster at `paper` with a dark (`ink`) plus sign of
    /// strokes `stroke` pixels wide through its centre, arms half the side long.
    static func plus(width: Int = 64, height: Int = 64, paper: Double = 220, ink: Double = 40, stroke: Int = 6) -> Raster {
        var values = [Double](repeating: paper, count: width * height)
        let cx = width / 2, cy = height / 2, arm = min(width, height) / 4
        for y in 0..<height {
            for x in 0..<width {
                let vertical = abs(x - cx) < stroke / 2 && abs(y - cy) <= arm
                let horizontal = abs(y - cy) < stroke / 2 && abs(x - cx) <= arm
                if vertical || horizontal { values[y * width + x] = ink }
            }
        }
        return Raster(width: width, height: height, values: values)
    }

    static func image(_ raster: Raster) throws -> GrayImage {
        try GrayImage(width: raster.width, height: raster.height, pixels: raster.values.map { UInt8($0) })
    }

    /// Steps 1 to 3 and the polarity decision of step 4 on `raster`.
    static func polarity(of raster: Raster, inversion: Preprocessor.Inversion = .auto)
        throws -> (inkIsDark: Bool, rules: PolarityStage.Rules, analysis: PipelineAnalysis)
    {
        var analysis = PipelineAnalysis()
        let picture = AnalysisSizeStage().run(try image(raster), into: &analysis)
        let paper = PaperStage().run(picture.gray, into: &analysis)
        let first = BackgroundStage().run(.init(picture: picture, paper: paper), into: &analysis)
        let input = PolarityStage.Input(first: first, paper: paper)
        let dark = PolarityStage(inversion: inversion).run(input, into: &analysis)
        return (dark, PolarityStage.rules(input), analysis)
    }

    @Test("polarity: dark ink on light paper is inverted, each of the three rules recorded; its negative is kept")
    func polarity() throws {
        let dark = try Self.polarity(of: Self.plus())
        #expect(dark.inkIsDark)
        #expect(dark.rules.darkVote && dark.rules.lightPaper)
        #expect(dark.analysis.lines.map { String($0.split(separator: ":").first!) }
                == ["1. analysis size", "2. paper", "3. background", "4. polarity"])
        #expect(dark.analysis.decision(of: .polarity)?.text
                == "inverted (ink darker than background: dark-ink vote 59%: yes; bright border: yes; light paper: yes)")
        let negative = Raster(width: 64, height: 64, values: Self.plus().values.map { 255 - $0 })
        let light = try Self.polarity(of: negative)
        #expect(!light.inkIsDark)
        #expect(light.analysis.decision(of: .polarity)?.text
                == "kept as it is (ink lighter than background: dark-ink vote 0%: no; bright border: no; light paper: no)")
        // --invert overrides the rules, and says so.
        let forced = try Self.polarity(of: negative, inversion: .always)
        #expect(forced.inkIsDark)
        #expect(forced.analysis.decision(of: .polarity)?.text == "inverted (--invert always)")
    }

    @Test("analysis size: a picture over 512 pixels is area-averaged down, a small one kept with its bytes")
    func analysisSize() throws {
        var analysis = PipelineAnalysis()
        let large = AnalysisSizeStage().run(try Self.image(Self.plus(width: 1024, height: 256)), into: &analysis)
        #expect(large.gray.width == 512 && large.gray.height == 128 && large.levels == nil)
        let small = AnalysisSizeStage().run(try Self.image(Self.plus()), into: &analysis)
        #expect(small.levels?.count == 64 * 64)
        #expect(analysis.lines == ["1. analysis size: 1024x256 area-averaged to 512x128", "1. analysis size: 64x64, kept"])
    }

    /// An ink map of `width`x`height` holding `pixels` at `value`.
    static func map(width: Int = 40, height: Int = 40, _ pixels: [(x: Int, y: Int)], value: Double = 1) -> InkMap {
        let indices = pixels.map { $0.y * width + $0.x }.sorted()
        return InkMap(width: width, height: height, indices: indices, values: indices.map { _ in value })
    }

    @Test("subject ink: without a locator the rules' strong ink; with one, none when it sees no ink, else the rules' ink it agrees with")
    func subjectInk() {
        let strong = (10..<20).map { (x: $0, y: 10) }
        let weak = (10..<20).map { (x: $0, y: 30) }
        let rules = InkMap(width: 40, height: 40,
                           indices: (strong + weak).map { $0.y * 40 + $0.x }.sorted(),
                           values: strong.map { _ in 1.0 } + weak.map { _ in InkExtractor.weakShare / 2 })
        var analysis = PipelineAnalysis()
        let alone = SubjectInkStage().run(.init(rules: rules, located: nil), into: &analysis)
        #expect(alone.decision == .rules)
        #expect(alone.map?.indices == strong.map { $0.y * 40 + $0.x })
        let none = SubjectInkStage().run(.init(rules: nil, located: nil), into: &analysis)
        #expect(none.map == nil)
        // The locator sees the strong row: the rules' ink there is kept.
        var probabilities = [Double](repeating: 0, count: 40 * 40)
        for p in strong { probabilities[p.y * 40 + p.x] = 0.9 }
        let sees = LocatedInk(probabilities: Raster(width: 40, height: 40, values: probabilities), peak: 0.9)
        let agreed = SubjectInkStage().run(.init(rules: rules, located: sees), into: &analysis)
        #expect(agreed.decision == .rulesWhereLocated && agreed.map?.count == strong.count)
        // It sees only the weak row, which the rules' strong ink does not hold: the located ink.
        var elsewhere = [Double](repeating: 0, count: 40 * 40)
        for p in weak { elsewhere[p.y * 40 + p.x] = 0.9 }
        let other = LocatedInk(probabilities: Raster(width: 40, height: 40, values: elsewhere), peak: 0.9)
        let located = SubjectInkStage().run(.init(rules: rules, located: other), into: &analysis)
        #expect(located.decision == .located && located.map?.indices == weak.map { $0.y * 40 + $0.x })
        let blind = LocatedInk(probabilities: Raster(width: 40, height: 40, values: elsewhere.map { $0 / 9 }), peak: 0.1)
        let nothing = SubjectInkStage().run(.init(rules: rules, located: blind), into: &analysis)
        #expect(nothing.decision == .nothingLocated && nothing.map == nil)
        #expect(analysis.lines == ["8. ink: rules (no locator)", "8. ink: rules (no locator), no ink",
                                   "8. ink: rules where located", "8. ink: located",
                                   "8. ink: nothing located, no ink"])
    }

    @Test("digit components: a block is kept, a far speck dropped, the box cropped at 0-255")
    func components() throws {
        var pixels: [(x: Int, y: Int)] = []
        for y in 5..<25 { for x in 8..<18 { pixels.append((x, y)) } }
        pixels.append((36, 36))
        var analysis = PipelineAnalysis()
        let digit = try #require(DigitComponentsStage().run(Self.map(pixels, value: 0.5), into: &analysis))
        #expect(digit.ink.width == 10 && digit.ink.height == 20)
        #expect(digit.ink.values.allSatisfy { $0 == 127.5 })
        #expect(analysis.lines == ["9. components: 1 kept, 1 dropped (specks, faint or far); box at x 8, y 5, 10x20"])
        // A speck alone is no digit.
        #expect(DigitComponentsStage().run(Self.map([(3, 3)]), into: &analysis) == nil)
        #expect(analysis.lines.last == "9. components: none large enough for a digit")
    }

    /// A `side`x`side` box (0-255) with a one-pixel full-ink diagonal.
    static func thinDiagonal(side: Int = 100) -> Raster {
        var values = [Double](repeating: 0, count: side * side)
        for i in 0..<side { values[i * side + i] = 255 }
        return Raster(width: side, height: side, values: values)
    }

    @Test("normalization tail: a 40x20 block becomes 20x10 centred by mass in 28x28; thin strokes thickened")
    func normalizationTail() throws {
        var analysis = PipelineAnalysis()
        let block = Raster(width: 40, height: 20, values: [Double](repeating: 255, count: 800))
        let normalized = try #require(NormalizationTail().run(block, into: &analysis))
        #expect(normalized.field.width == 28 && normalized.field.height == 28)
        // The 20x10 block of full ink lies at x 5..<25, y 10..<20: its centre of mass (9.5, 4.5) is
        // moved by 4.5 and 9.5 pixels towards MNIST's pixel 14, rounded up to whole pixels.
        for y in 0..<28 {
            for x in 0..<28 { #expect(normalized.field[x, y] == ((5..<25).contains(x) && (10..<20).contains(y) ? 255 : 0)) }
        }
        #expect(normalized.tensor == DigitTensor(intensities: normalized.field.values))
        #expect(analysis.lines == ["10. normalization: box 40x20 → 20x10, strokes kept, centred by mass in 28x28"])

        // A one-pixel line on a 100-pixel box shrinks to a fifth of full ink: thickened and stretched back to full.
        let thin = Self.thinDiagonal()
        let thick = try #require(NormalizationTail().run(thin, into: &analysis))
        let plain = try #require(MNISTNormalizer.centred(MNISTNormalizer.scaled(thin)))
        #expect(plain.values.max()! < 0.6 * 255)
        #expect(thick.field.values.max()! == 255)
        #expect(thick.field.values.filter { $0 > 0 }.count > plain.values.filter { $0 > 0 }.count)
        #expect(analysis.lines.dropFirst() == ["10. normalization: box 100x100 → 20x20, strokes thickened (typical ink 20% of full), centred by mass in 28x28"])
        // An empty box has no field.
        #expect(NormalizationTail().run(Raster(width: 4, height: 4, values: [Double](repeating: 0, count: 16)), into: &analysis) == nil)
    }

    @Test("read's pieces go through the same tail: a thin piece is thickened as a single digit is")
    func piecesShareTheTail() throws {
        // A one-pixel diagonal glyph, 100 pixels tall, between straight cuts at columns 0 and 100.
        let thin = Self.thinDiagonal()
        let piece = try #require(PieceTensor(thin, between: CutPath(column: Array(repeating: 0, count: 100)),
                                             and: CutPath(column: Array(repeating: 100, count: 100))))
        var analysis = PipelineAnalysis()
        let tail = try #require(NormalizationTail().run(thin, into: &analysis))
        #expect(piece.tensor == tail.tensor)
        #expect(piece.box == BoundingBox(minX: 0, minY: 0, maxX: 99, maxY: 99))
    }

    @Test("the whole pipeline records steps 1 to 6 and 8 to 10 in order without a locator, and they reach PreprocessingStages")
    func wholePipeline() throws {
        let stages = Preprocessor().process(try Self.image(Self.plus()))
        #expect(stages.field != nil)
        #expect(stages.analysis.decisions.map(\.step) == [.analysisSize, .paper, .background, .polarity, .strokeWidth,
                                                          .standOutInk, .subjectInk, .components, .normalization])
        // The stages' outputs are the pipeline's own: the tail of the digit's box is the field.
        var analysis = PipelineAnalysis()
        #expect(NormalizationTail().run(try #require(stages.ink), into: &analysis)?.field == stages.field)
        // Raw mode runs none of the steps.
        #expect(Preprocessor(mode: .raw).process(try Self.image(Self.plus())).analysis.decisions.isEmpty)
    }

    @Test("ascii --steps prints each step's decision, numbered, before the pictures")
    func asciiSteps() throws {
        let file = Fixtures.repositoryRoot.appendingPathComponent("Examples/three-on-paper.png").path
        let steps = try CLI.digits(["ascii", "--steps", "--no-locator", file])
        #expect(steps.status == 0)
        #expect(Array(steps.stdoutLines.prefix(9)) == [
            "1. analysis size: 300x200, kept",
            "2. paper: no sheet on a desk, the whole picture is analysed",
            "3. background: cells of 13 px, noise threshold 8.0 grey levels",
            "4. polarity: inverted (ink darker than background: dark-ink vote 98%: yes; bright border: yes; light paper: yes)",
            "5. stroke width: strokes 16.5 px wide; background measured again in cells of 20 px",
            "6. stand-out ink: 3536 px above the noise threshold 8.0",
            "8. ink: rules (no locator)",
            "9. components: 1 kept, 0 dropped (specks, faint or far); box at x 169, y 45, 82x82",
            "10. normalization: box 82x82 → 20x20, strokes kept, centred by mass in 28x28",
        ])
        #expect(steps.stdoutLines.dropFirst(9).first?.hasPrefix("picture (300x200") == true)
    }
}
