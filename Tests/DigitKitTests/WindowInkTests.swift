@testable import DigitKit
import Foundation
import Testing
import TestSupport

@Suite("A digit inside a window the locator took for the ink")
struct WindowInkTests {
    /// A light plate (200) with a dark window (30) from (4, 4) to (27, 35),
    /// and inside it the light pixels `inside` draws (230).
    static func plate(_ inside: (Int, Int) -> Bool) -> Raster {
        let width = 32, height = 40
        var values = [Double](repeating: 200, count: width * height)
        for y in 4...35 {
            for x in 4...27 { values[y * width + x] = inside(x, y) ? 230 : 30 }
        }
        return Raster(width: width, height: height, values: values)
    }

    /// An ink map of the pixels `ink` is true of, all at 1.
    static func map(width: Int = 32, height: Int = 40, _ ink: (Int, Int) -> Bool) -> InkMap {
        let indices = (0..<(width * height)).filter { ink($0 % width, $0 / width) }
        return InkMap(width: width, height: height, indices: indices, values: Array(repeating: 1, count: indices.count))
    }

    static func bar(_ x: Int, _ y: Int) -> Bool { (14...17).contains(x) && (10...29).contains(y) }
    static func window(_ x: Int, _ y: Int) -> Bool { (4...27).contains(x) && (4...35).contains(y) }

    @Test("the window's light bar is the digit, at full resolution; the plate and the window are left out")
    func barInWindow() throws {
        let digit = try #require(WindowInk.digit(in: Self.map(Self.window), gray: Self.plate(Self.bar)))
        #expect(digit.indices == Self.map(Self.bar).indices)
        #expect(digit.values.allSatisfy { $0 == 1 })
        // The locator's map with the bar as a hole in the window says the same.
        let holed = WindowInk.digit(in: Self.map { Self.window($0, $1) && !Self.bar($0, $1) }, gray: Self.plate(Self.bar))
        #expect(holed?.indices == digit.indices)
    }

    @Test("a digit cut by the window's edge (a wheel half turned) is read; a plate's rim along the box's edge is not")
    func cutDigitAndRim() throws {
        let cut = { (x: Int, y: Int) in (14...17).contains(x) && (16...35).contains(y) }
        let rim = { (x: Int, y: Int) in x == 4 && (8...31).contains(y) }
        let digit = try #require(WindowInk.digit(in: Self.map(Self.window), gray: Self.plate { cut($0, $1) || rim($0, $1) }))
        #expect(digit.indices == Self.map(cut).indices)
    }

    @Test("no window: a ring (a 0's ink leaves its box's corners empty), an empty window, a speck in it")
    func noWindow() {
        let ring = Self.map { x, y in
            let (dx, dy) = (Double(x) - 15.5, Double(y) - 19.5)
            let r = (dx * dx) / (11 * 11) + (dy * dy) / (15 * 15)
            return r <= 1 && r >= 0.4
        }
        #expect(WindowInk.digit(in: ring, gray: Self.plate(Self.bar)) == nil)
        #expect(WindowInk.digit(in: Self.map(Self.window), gray: Self.plate { _, _ in false }) == nil)
        #expect(WindowInk.digit(in: Self.map(Self.window), gray: Self.plate { x, y in (15...16).contains(x) && (18...19).contains(y) }) == nil)
    }

    static func classifier() throws -> DigitClassifier {
        try DigitClassifier(model: NumberFixtures.model.get(), preprocessor: Preprocessor(locator: NumberFixtures.locator.get()))
    }

    @Test("meter crops (Tests/Tools/make_window_fixtures.py): not a digit on the first look, the digit inside on the second",
          arguments: ["window-dejavu-0.png", "window-dejavu-3.png", "window-liberation-7.png"])
    func meterCrop(file: String) throws {
        let expected = Int(String(file.dropLast(4).last!))!
        let image = try ImageDecoder.forClassification.decode(fileAtPath: Fixtures.path("windows/\(file)"))
        let classifier = try Self.classifier()
        let stages = try classifier.preprocessor.stages(for: image)
        #expect(stages.inkDecision.isLocators)
        #expect(try classifier.model.predict(#require(stages.tensor)).isNotADigit)
        #expect(stages.secondLook?.warning == .insideWindow)

        let answer = try classifier.classification(of: image)
        #expect(answer.prediction?.digit == expected)
        #expect(answer.warnings == [.insideWindow])
        #expect(answer.isUncertain)
        let batch = try classifier.classify([.image(image, name: file)])
        #expect(batch.first?.prediction == answer.prediction)
        #expect(batch.first?.warnings == [.insideWindow])
    }

    @Test("a photo of a digit on paper is no window")
    func photoIsNoWindow() throws {
        for file in ["photos/desk-001-5.jpg", "photos/shadow-012-8.jpg"] {
            let image = try ImageDecoder.forClassification.decode(fileAtPath: Fixtures.path(file))
            let stages = try Self.classifier().preprocessor.stages(for: image)
            #expect(stages.secondLook?.warning != .insideWindow, "\(file)")
        }
    }
}
