@testable import DigitKit
import Foundation
import Testing
import TestSupport

/// The sheet found on a desk, and a meter's window in a light frame
/// (`PaperRegion.find`), on drawn pictures.
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

    /// A `width` x `height` picture at `frame`, with a rectangle at
    /// `window` 6 pixels in from every edge, and on it, where `ink` holds,
    /// pixels at `digit`.
    static func framed(width: Int, height: Int, frame: Double, window: Double, digit: Double,
                       _ ink: (Int, Int) -> Bool) -> Raster {
        var values = [Double](repeating: frame, count: width * height)
        for y in 6..<(height - 6) {
            for x in 6..<(width - 6) { values[y * width + x] = ink(x, y) ? digit : window }
        }
        return Raster(width: width, height: height, values: values)
    }

    /// A light 1 down the middle of a 60x90 picture, 8 pixels wide.
    static func one(_ x: Int, _ y: Int) -> Bool { (26..<34).contains(x) && (20..<70).contains(y) }

    @Test("a meter's dark window in a light plate is found where one digit is read, and only there")
    func windowInLightFrame() throws {
        let crop = Self.framed(width: 60, height: 90, frame: 205, window: 35, digit: 225, Self.one)
        let window = PaperRegion.find(in: crop, windows: true)
        #expect(window.isWindow)
        let box = try #require(window.bounds)
        #expect(box.minX >= 6 && box.maxX < 54 && box.minY >= 6 && box.maxY < 84, "\(box)")
        #expect(box.minX <= 12 && box.maxX >= 47 && box.minY <= 12 && box.maxY >= 77, "\(box)")
        // `read` does not ask: the plate is a bright border, as before.
        let plate = PaperRegion.find(in: crop)
        #expect(plate.bounds == nil && !plate.isWindow)
        #expect(plate.borderBrightShare >= PaperRegion.paperBorder)
    }

    @Test("a bold dark bar on light paper is no window: it holds no light ink")
    func boldBarIsNoWindow() {
        // Drawn as a window whose inside is all "digit": a dark bar 20 wide in a light picture.
        let bar = Self.framed(width: 60, height: 90, frame: 225, window: 225, digit: 30) { x, y in
            (20..<40).contains(x) && (10..<80).contains(y)
        }
        let searched = PaperRegion.find(in: bar, windows: true)
        #expect(searched.bounds == nil)
        // No window found, the bright border's share is kept as without the search: step 4 reads it.
        #expect(searched.borderBrightShare == PaperRegion.find(in: bar).borderBrightShare)
        #expect(searched.borderBrightShare >= PaperRegion.paperBorder)
    }

    @Test("depth: how many 4-way erosions empty a grid, the frame counting as outside")
    func depth() {
        func grid(_ width: Int, _ height: Int, _ set: (Int, Int) -> Bool) -> CellGrid<Bool> {
            CellGrid(width: width, height: height, cells: (0..<(width * height)).map { set($0 % width, $0 / width) })
        }
        #expect(grid(9, 9) { _, _ in false }.depth == 0)
        // A bar 5 wide: 5, 3, 1, none.
        #expect(grid(9, 20) { x, y in (2..<7).contains(x) && (2..<18).contains(y) }.depth == 3)
        // A full grid: its frame counts as outside, so 9 across empties as a bar 9 wide would.
        #expect(grid(9, 20) { _, _ in true }.depth == 5)
        // A ring 2 thick round a hole: its sides go at the first erosion, its inner corners at the second.
        #expect(grid(12, 12) { x, y in (1..<11).contains(x) && (1..<11).contains(y) && !((3..<9).contains(x) && (3..<9).contains(y)) }.depth == 2)
    }

    @Test("a bold dark 0 on light paper is no window: its ring is thinner than the light counter it holds")
    func darkRingIsNoWindow() {
        // A ring 10 pixels thick around a counter 20 wide: 36% of the filled shape is light,
        // which a window's digit may be; only the thickness tells the ink.
        let zero = Self.framed(width: 60, height: 90, frame: 225, window: 225, digit: 30) { x, y in
            (10..<50).contains(x) && (10..<80).contains(y) && !((20..<40).contains(x) && (20..<70).contains(y))
        }
        #expect(PaperRegion.find(in: zero, windows: true).bounds == nil)
        // The same shapes with the classes swapped, a light 0 in a dark window, is one.
        let window = Self.framed(width: 60, height: 90, frame: 205, window: 35, digit: 225) { x, y in
            (18..<42).contains(x) && (18..<72).contains(y) && !((24..<36).contains(x) && (24..<66).contains(y))
        }
        #expect(PaperRegion.find(in: window, windows: true).isWindow)
    }

    @Test("a light digit filling most of the window leaves it no window")
    func digitFillingTheWindow() {
        let crop = Self.framed(width: 60, height: 90, frame: 205, window: 35, digit: 225) { x, y in
            (10..<50).contains(x) && (10..<80).contains(y) && !((24..<36).contains(x) && (30..<60).contains(y))
        }
        #expect(PaperRegion.find(in: crop, windows: true).bounds == nil)
    }

    @Test("a crop under the sheet search's 48 pixels is searched for a window; without one it keeps no border share")
    func smallCrops() throws {
        let window = Self.framed(width: 24, height: 32, frame: 205, window: 35, digit: 225) { x, y in
            (11..<14).contains(x) && (10..<22).contains(y)
        }
        let found = PaperRegion.find(in: window, windows: true)
        #expect(found.isWindow)
        let box = try #require(found.bounds)
        #expect(box.minX >= 6 && box.maxX < 18 && box.minY >= 6 && box.maxY < 26, "\(box)")
        // A dark digit on light paper, as small: no window, and as before no border share.
        let drawing = Self.framed(width: 24, height: 32, frame: 225, window: 225, digit: 30) { x, y in
            (11..<14).contains(x) && (10..<22).contains(y)
        }
        let none = PaperRegion.find(in: drawing, windows: true)
        #expect(none.bounds == nil && none.borderBrightShare == 0)
        #expect(PaperRegion.find(in: window).borderBrightShare == 0)
    }
}
