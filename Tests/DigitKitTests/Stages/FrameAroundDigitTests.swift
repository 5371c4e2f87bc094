@testable import DigitKit
import Testing
import TestSupport

/// A box drawn around a digit (a form's field, a card's edge the locator
/// marked) is dropped in step 9 and the digit inside kept; a 0, a frame
/// with nothing inside and a box turned a little are told apart.
@Suite("A frame around the digit")
struct FrameAroundDigitTests {
    typealias Map = ComponentSelectionTests

    /// A 2-pixel frame around x 10-89, y 5-94, with a gap on its top side
    /// of `gap` pixels.
    static func frame(_ x: Int, _ y: Int, gap: Int = 0) -> Bool {
        let inX = (10...89).contains(x), inY = (5...94).contains(y)
        let onSide = (inY && (x <= 11 || x >= 88) && inX) || (inX && (y <= 6 || y >= 93) && inY)
        return onSide && !(y <= 6 && (50..<(50 + gap)).contains(x))
    }

    /// A 7 drawn with `width`-pixel strokes: a bar at y 30, a diagonal down to (40, 70).
    static func seven(_ x: Int, _ y: Int, width: Int = 3) -> Bool {
        let bar = (30..<(30 + width)).contains(y) && (35...65).contains(x)
        let t = Double(y - 30) / 40, along = 65 - 25 * t
        let stroke = (30...70).contains(y) && abs(Double(x) - along) < Double(width) / 2 + 0.5
        return bar || stroke
    }

    @Test("a thin or a bold digit in a frame, a frame with a gap: the frame is dropped, the digit kept", arguments: [
        (width: 3, gap: 0), (width: 9, gap: 0), (width: 3, gap: 25),
    ])
    func frameDropped(width: Int, gap: Int) throws {
        let map = Map.map { x, y in Self.frame(x, y, gap: gap) || Self.seven(x, y, width: width) ? 1 : 0 }
        let digit = try #require(ConnectedComponents.digit(in: map))
        #expect(digit.box.minX > 11 && digit.box.maxX < 88 && digit.box.minY > 6 && digit.box.maxY < 93, "\(digit.box)")
        #expect(digit.kept == 1)
        #expect(digit.parts.count == 1)
    }

    @Test("not frames: a ring (a 0) around a blob, a box with nothing inside, a box whose sides hold only half their length")
    func notFrames() throws {
        // A 4-pixel ring of radius 40 around (50, 50) with a blob inside.
        let ring = Map.map { x, y in
            let r = (Double((x - 50) * (x - 50) + (y - 50) * (y - 50))).squareRoot()
            return (r >= 36 && r < 40) || ((45..<55).contains(x) && (45..<55).contains(y)) ? 1 : 0
        }
        let zero = try #require(ConnectedComponents.digit(in: ring))
        #expect(zero.box == BoundingBox(minX: 11, minY: 11, maxX: 89, maxY: 89))
        #expect(zero.kept == 2)

        let empty = Map.map { x, y in Self.frame(x, y) ? 1 : 0 }
        #expect(try #require(ConnectedComponents.digit(in: empty)).box == BoundingBox(minX: 10, minY: 5, maxX: 89, maxY: 94))

        let halfSides = Map.map { x, y in Self.frame(x, y, gap: 45) || Self.seven(x, y) ? 1 : 0 }
        #expect(try #require(ConnectedComponents.digit(in: halfSides)).box.minY <= 6)
    }

    @Test("a committed digit photo with a box drawn around its digit reads the same")
    func boxedPhoto() throws {
        let path = Fixtures.repositoryRoot.appendingPathComponent("Examples/three-on-paper.png").path
        let image = try ImageDecoder.forClassification.decode(fileAtPath: path)
        let classifier = try DigitClassifier(model: NumberFixtures.model.get(), preprocessor: Preprocessor(locator: NumberFixtures.locator.get()))
        let plain = try #require(classifier.classification(of: image).prediction)
        let ink = try #require(Preprocessor().inkMap(for: image).map?.boundingBox)
        // A dark 3-pixel box a third of the digit's size outside its ink, at analysis scale.
        let scale = Double(max(image.width, image.height)) / Double(min(Preprocessor.analysisSide, max(image.width, image.height)))
        let margin = Double(max(ink.width, ink.height)) / 3
        let (x0, y0) = (Int((Double(ink.minX) - margin) * scale), Int((Double(ink.minY) - margin) * scale))
        let (x1, y1) = (Int((Double(ink.maxX) + margin) * scale), Int((Double(ink.maxY) + margin) * scale))
        let thick = max(3, Int(3 * scale))
        var pixels = image.pixels
        for y in max(0, y0)...min(image.height - 1, y1) {
            for x in max(0, x0)...min(image.width - 1, x1) where x - x0 < thick || x1 - x < thick || y - y0 < thick || y1 - y < thick {
                pixels[y * image.width + x] = 20
            }
        }
        let boxed = try GrayImage(width: image.width, height: image.height, pixels: pixels)
        let framed = try #require(classifier.classification(of: boxed).prediction)
        #expect(framed.digit == plain.digit)
        #expect(framed.digit == 3)
    }
}
