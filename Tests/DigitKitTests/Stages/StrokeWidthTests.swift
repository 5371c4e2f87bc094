@testable import DigitKit
import Testing
import TestSupport

/// `StrokeWidth` alone: twice the area over the edge pixels measures drawn
/// strokes close to their width.
@Suite("Stroke width")
struct StrokeWidthTests {
    static let side = 120

    /// Row-major indices of the pixels of a `side`x`side` picture for which `isInk(x, y)`.
    static func indices(_ isInk: (Int, Int) -> Bool) -> [Int] {
        (0..<(side * side)).filter { isInk($0 % side, $0 / side) }
    }

    static func width(_ isInk: (Int, Int) -> Bool) -> Double {
        StrokeWidth.of(indices(isInk), width: side, height: side)
    }

    @Test("a bar 80 pixels long measures within 10% of its drawn width", arguments: [2, 3, 5, 8, 12])
    func bar(drawn: Int) {
        // Its two ends count as edge too, which reads a bar of width w and
        // length l as w l / (l - 2 + w): at most 12% under for 12 of 80.
        let measured = Self.width { x, y in (40..<(40 + drawn)).contains(x) && (20..<100).contains(y) }
        #expect(abs(measured - Double(drawn)) <= 0.1 * Double(drawn) + 0.3)
    }

    @Test("a ring 6 pixels thick (a drawn 0) measures within a pixel of 6")
    func ring() {
        let measured = Self.width { x, y in
            let dx = Double(x) - 60, dy = Double(y) - 60
            let r = (dx * dx + dy * dy).squareRoot()
            return r >= 30 && r < 36
        }
        #expect(abs(measured - 6) <= 1)
    }

    @Test("a stroke running off the picture has no edge where it is cut: a 6-pixel bar crossing the picture measures 6")
    func cutByThePicture() {
        #expect(Self.width { x, _ in (57..<63).contains(x) } == 6)
        // The same bar against the left border has one edge only: it reads twice as wide.
        #expect(Self.width { x, _ in x < 6 } == 12)
    }

    @Test("no pixels: width 0")
    func empty() {
        #expect(StrokeWidth.of([], width: Self.side, height: Self.side) == 0)
    }

    @Test("measured on a raster at a level, the width is the one measured on the pixels at that level", arguments: [1, 2, 3])
    func rasterTwin(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        // Blobs of random probabilities, some touching the picture's edges.
        let width = 97, height = 61
        var values = [Double](repeating: 0, count: width * height)
        for _ in 0..<12 {
            let cx = Int.random(in: 0..<width, using: &generator), cy = Int.random(in: 0..<height, using: &generator)
            let radius = Int.random(in: 1...9, using: &generator)
            for y in max(0, cy - radius)..<min(height, cy + radius) {
                for x in max(0, cx - radius)..<min(width, cx + radius) {
                    values[y * width + x] = max(values[y * width + x], Double.random(in: 0...1, using: &generator))
                }
            }
        }
        let raster = Raster(width: width, height: height, values: values)
        for level in [0.25, 0.5, 0.9] {
            let indices = values.indices.filter { values[$0] >= level }
            #expect(!indices.isEmpty)
            #expect(StrokeWidth.of(raster, atLeast: level) == StrokeWidth.of(indices, width: width, height: height))
        }
        #expect(StrokeWidth.of(Raster(width: width, height: height, values: [Double](repeating: 0, count: width * height)), atLeast: 0.5) == 0)
    }
}
