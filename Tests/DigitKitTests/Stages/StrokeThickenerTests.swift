@testable import DigitKit
import Testing
import TestSupport

/// `StrokeThickener` alone: thin strokes (faint once shrunk into the 20-pixel
/// box) grow by the documented neighbourhood and are stretched to full ink;
/// strokes with full ink are left as they are.
@Suite("Stroke thickener")
struct StrokeThickenerTests {
    /// A 20x20 box holding the pixels for which `isInk(x, y)` at `level`.
    static func box(level: Double, _ isInk: (Int, Int) -> Bool) -> Raster {
        var box = Raster(width: 20, height: 20, values: [Double](repeating: 0, count: 400))
        for y in 0..<20 { for x in 0..<20 where isInk(x, y) { box[x, y] = level } }
        return box
    }

    /// The columns holding ink in row `y`.
    static func inkColumns(_ raster: Raster, row y: Int) -> [Int] {
        (0..<raster.width).filter { raster[$0, y] > 0 }
    }

    @Test("a one-pixel line at 40% of full ink grows to 3 pixels wide by its 4 neighbours, stretched to full ink")
    func thinLineGrows() {
        // Mean ink 0.39 is above `faintestBelow`: the 4-neighbourhood, so the
        // line also grows one pixel at each end, and only in its own column.
        let line = Self.box(level: 100) { x, y in x == 10 && (4..<16).contains(y) }
        #expect(StrokeThickener.isThin(line))
        let thick = StrokeThickener.thickened(line)
        for y in 4..<16 {
            #expect(Self.inkColumns(thick, row: y) == [9, 10, 11])
            #expect((9...11).allSatisfy { abs(thick[$0, y] - 255) < 1e-9 })
        }
        #expect(Self.inkColumns(thick, row: 3) == [10] && Self.inkColumns(thick, row: 16) == [10])
        #expect(Self.inkColumns(thick, row: 2).isEmpty && Self.inkColumns(thick, row: 17).isEmpty)
    }

    @Test("the faintest traces (mean ink under a quarter) grow by 8 neighbours: a diagonal becomes 5 pixels across, not 3")
    func faintestUseEightNeighbours() {
        let diagonal: (Int, Int) -> Bool = { x, y in x == y && (2..<18).contains(y) }
        // |x - y| <= 2 around the diagonal with 8 neighbours, <= 1 with 4.
        let faint = StrokeThickener.thickened(Self.box(level: 40, diagonal))
        let lighter = StrokeThickener.thickened(Self.box(level: 100, diagonal))
        for y in 5..<15 {
            #expect(Self.inkColumns(faint, row: y) == Array((y - 2)...(y + 2)))
            #expect(Self.inkColumns(lighter, row: y) == Array((y - 1)...(y + 1)))
        }
    }

    @Test("strokes with full ink are left alone, however wide: a 5-pixel bar and a 1-pixel line at 255")
    func fullInkLeftAlone() {
        let bar = Self.box(level: 255) { x, y in (8..<13).contains(x) && (2..<18).contains(y) }
        let line = Self.box(level: 255) { x, y in x == 10 && (2..<18).contains(y) }
        // Just over the threshold (60% of full) counts as full enough.
        let justThick = Self.box(level: 0.61 * 255) { x, y in x == 10 && (2..<18).contains(y) }
        for box in [bar, line, justThick] {
            #expect(!StrokeThickener.isThin(box))
            #expect(StrokeThickener.thickened(box) == box)
        }
        let empty = Self.box(level: 0) { _, _ in false }
        #expect(!StrokeThickener.isThin(empty) && StrokeThickener.thickened(empty) == empty)
    }
}
