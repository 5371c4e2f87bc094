@testable import DigitKit
import Foundation
import Testing
import TestSupport

/// The sheet found on a desk (`PaperRegion.find`) on drawn pictures.
@Suite("Paper on a desk")
struct PaperRegionTests {
    /// A 320x400 picture: a desk at level 70 and a sheet at 225 over x
    /// 60..<260, y 60..<340, with a dark bar on it (the ink) and `patches`
    /// (x, y, side) as bright as the sheet on the desk.
    static func desk(patches: [(x: Int, y: Int, side: Int)]) -> Raster {
        let width = 320, height = 400
        var values = [Double](repeating: 70, count: width * height)
        for y in 60..<340 { for x in 60..<260 { values[y * width + x] = 225 } }
        for y in 150..<250 { for x in 150..<165 { values[y * width + x] = 30 } }
        for patch in patches {
            for y in patch.y..<(patch.y + patch.side) { for x in patch.x..<(patch.x + patch.side) { values[y * width + x] = 225 } }
        }
        return Raster(width: width, height: height, values: values)
    }

    @Test("a sheet on a plain desk is found, its edge left out")
    func plainDesk() throws {
        let paper = try #require(PaperRegion.find(in: Self.desk(patches: [])).bounds)
        #expect(paper.minX > 60 && paper.maxX < 260 && paper.minY > 60 && paper.maxY < 340)
        #expect(paper.minX < 90 && paper.maxX > 230 && paper.minY < 90 && paper.maxY > 310)
    }

    @Test("bright desk patches touching the sheet (a tablecloth's white checks) are cut off, not the sheet lost")
    func patchesTouchingTheSheet() throws {
        // Squares of 20 pixels (about 3 cells of the 64-cell search), 20
        // apart, touching the sheet on all four sides: with them the
        // sheet would fill under 85% of its box and not be found.
        let along = stride(from: 64, through: 240, by: 40)
        let down = stride(from: 64, through: 320, by: 40)
        let patches = along.flatMap { [(x: $0, y: 40, side: 20), (x: $0, y: 340, side: 20)] }
            + down.flatMap { [(x: 40, y: $0, side: 20), (x: 260, y: $0, side: 20)] }
        let paper = try #require(PaperRegion.find(in: Self.desk(patches: patches)).bounds)
        // The patches reach x 40 and 280, y 40 and 360; the sheet 60-259, 60-339.
        #expect(paper.minX >= 52 && paper.maxX <= 267 && paper.minY >= 52 && paper.maxY <= 347, "\(paper)")
        #expect(paper.minX < 90 && paper.maxX > 230 && paper.minY < 90 && paper.maxY > 310, "\(paper)")
    }
}
