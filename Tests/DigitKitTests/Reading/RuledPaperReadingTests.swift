@testable import DigitKit
import Testing
import TestSupport

/// `NumberReader` with the ink locator on numbers written on a notebook
/// page: the committed pictures on paper, with ruled lines drawn behind
/// their ink. The lines join every digit into one glyph for the rules
/// alone; the locator leaves them out.
@Suite("Reading numbers on ruled paper")
struct RuledPaperReadingTests {
    /// `image` with a line every `spacing` rows, `width` rows thick, where
    /// the paper is lighter than the line: a pen's ink stays in front.
    static func ruled(_ image: GrayImage, spacing: Int, width: Int = 2, level: UInt8 = 170) throws -> GrayImage {
        var pixels = image.pixels
        for y in stride(from: spacing / 2, to: image.height, by: spacing) {
            for row in y..<min(image.height, y + width) {
                for x in 0..<image.width where pixels[row * image.width + x] > level { pixels[row * image.width + x] = level }
            }
        }
        return try GrayImage(width: image.width, height: image.height, pixels: pixels)
    }

    @Test("a number on ruled paper reads as on plain paper")
    func readsAsOnPlainPaper() throws {
        let reader = try NumberFixtures.reader()
        var rulesAlone = try NumberFixtures.reader()
        rulesAlone.preprocessor.locator = nil
        let decoder = ImageDecoder.forClassification
        var same = 0, sameByRules = 0, compared = 0
        for picture in NumberFixtures.numbers where picture.condition == "paper" {
            let plain = try decoder.decode(fileAtPath: Fixtures.path("numbers/\(picture.file)"))
            guard try reader.read(plain).text == picture.text else { continue }
            let page = try Self.ruled(plain, spacing: plain.height / 4)
            compared += 1
            if try reader.read(page).text == picture.text { same += 1 }
            if try rulesAlone.read(page).text == picture.text { sameByRules += 1 }
        }
        try #require(compared >= 15, "\(compared) pictures on paper read right")
        #expect(same * 10 >= compared * 9, "\(same) of \(compared) read the same on ruled paper")
        // The pictures are hard for the rules: the test would notice a reader without the locator.
        #expect(sameByRules * 2 < compared, "the rules alone read \(sameByRules) of \(compared)")
    }

    @Test("a blank ruled page has no number, as classify finds no digit on it")
    func blankPage() throws {
        let page = try Self.ruled(try GrayImage(width: 220, height: 160, pixels: Array(repeating: 240, count: 220 * 160)), spacing: 40)
        var rulesAlone = try NumberFixtures.reader()
        rulesAlone.preprocessor.locator = nil
        // The rules alone take the lines for ink and read them.
        #expect(try rulesAlone.read(page).text != nil)
        let reader = try NumberFixtures.reader()
        let reading = try reader.read(page)
        #expect(reading.text == nil && reading.characters.isEmpty)
        // --steps says why: the rules found ink, the locator saw none.
        let steps = reader.inkSteps(for: page)
        #expect(steps.picture == nil)
        #expect(steps.analysis.decision(of: .standOutInk)?.text.hasSuffix("px above the noise threshold 8.0") == true)
        #expect(steps.analysis.decision(of: .subjectInk)?.text == "nothing located, no ink")
        #expect(rulesAlone.inkSteps(for: page).analysis.decision(of: .subjectInk)?.text == "rules (no locator)")
    }

    @Test("the README's ruled-paper number reads; the ruled lines are not part of its ink")
    func example() throws {
        let reader = try NumberFixtures.reader()
        let path = Fixtures.repositoryRoot.appendingPathComponent("Examples/numbers/ruled-2026.png").path
        let image = try reader.decoder.decode(fileAtPath: path)
        #expect(try reader.read(image).text == "2026")
        // The rules' ink narrowed where the locator agrees, not the locator's coarse map.
        #expect(try NumberSubjectInk(image, preprocessor: reader.preprocessor).decision == .rulesWhereLocated)
        let steps = reader.inkSteps(for: image)
        #expect(steps.analysis.decisions.map(\.step) == Array(PipelineStep.allCases.prefix(8)))
        #expect(steps.analysis.decision(of: .subjectInk)?.text.hasPrefix("rules where located; for a number, narrowed") == true)
        let ink = try #require(steps.picture)
        // A ruled line crosses the whole picture; the number's ink spans far less of it.
        var columns = Set<Int>()
        for y in 0..<ink.height { for x in 0..<ink.width where ink[x, y] > 0 { columns.insert(x) } }
        #expect(columns.count * 10 < ink.width * 9, "ink in \(columns.count) of \(ink.width) columns")
    }
}
