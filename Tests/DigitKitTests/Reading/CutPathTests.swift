@testable import DigitKit
import Testing
import TestSupport

/// Cuts that bend around strokes: two leaning glyphs whose columns overlap
/// can be parted without cutting ink, which no straight cut can do.
@Suite("Cut paths between touching digits")
struct CutPathTests {
    /// 20 rows: a wedge of ink on the left (columns 2...6 + y/3) and a
    /// block on the right (columns 11 + y/3...22), with a slanted gap
    /// between them that no single column stays inside.
    static let leaning: Raster = {
        let width = 24, height = 20
        var values = [Double](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 2...(6 + y / 3) { values[y * width + x] = 255 }
            for x in (11 + y / 3)...22 { values[y * width + x] = 200 }
        }
        return Raster(width: width, height: height, values: values)
    }()

    static func inkCrossed(_ cut: CutPath, in raster: Raster) -> Double {
        cut.column.enumerated().reduce(0) { $0 + raster[$1.element, $1.offset] }
    }

    @Test("every straight cut between the glyphs crosses ink; the least-ink cut crosses none and moves a column a row at most")
    func bendsAroundStrokes() {
        let raster = Self.leaning
        for x in 3...22 {
            #expect(Self.inkCrossed(.straight(at: x, height: raster.height), in: raster) > 0, "column \(x)")
        }
        let cut = CutPath.leastInk(in: raster, near: 10, reach: 6)
        #expect(Self.inkCrossed(cut, in: raster) == 0, "\(cut.column)")
        #expect(cut.column.allSatisfy { (4...16).contains($0) })
        #expect(zip(cut.column, cut.column.dropFirst()).allSatisfy { abs($0 - $1) <= 1 })
    }

    @Test("the pieces on either side of a bent cut hold each glyph whole, their boxes sharing columns")
    func piecesAreWhole() throws {
        let raster = Self.leaning
        let cut = CutPath.leastInk(in: raster, near: 10, reach: 6)
        let left = try #require(PieceTensor(raster, between: .straight(at: 0, height: raster.height), and: cut))
        let right = try #require(PieceTensor(raster, between: cut, and: .straight(at: raster.width, height: raster.height)))
        #expect(left.box == BoundingBox(minX: 2, minY: 0, maxX: 12, maxY: 19))
        #expect(right.box == BoundingBox(minX: 11, minY: 0, maxX: 22, maxY: 19))
    }

    @Test("a cut is never left of the one before it, and a reach past the edges stays inside")
    func cutsDoNotCross() {
        let first = CutPath(column: [5, 6, 7, 8]), second = CutPath(column: [9, 6, 4, 8])
        #expect(second.notLeft(of: first).column == [9, 6, 7, 8])
        let raster = Self.leaning
        let edge = CutPath.leastInk(in: raster, near: 1, reach: 40)
        #expect(edge.column.allSatisfy { (1..<raster.width).contains($0) })
    }
}
