@testable import DigitKit
import Testing
import TestSupport

/// `InkExtractor` alone, given the pixels standing out of a drawn page's
/// background: the map holds the stroke and nothing of the paper, typical
/// ink is full ink, a faint ruled line is weak, and ink that barely stands
/// out of the noise is no ink.
@Suite("Ink extractor")
struct InkExtractorTests {
    static let side = 160, paper = 200.0

    /// A `side`x`side` page at `paper` with a fixed noise of ±3 grey levels,
    /// a dark ring 3 pixels thick (a drawn 0) at `ink`, and a ruled line
    /// across row 20 at `ruled` when given.
    static func page(ink: Double, ruled: Double? = nil) -> (raster: Raster, ring: Set<Int>, line: Set<Int>) {
        var values = [Double](repeating: 0, count: side * side)
        var ring = Set<Int>(), line = Set<Int>()
        for y in 0..<side {
            for x in 0..<side {
                let index = y * side + x
                values[index] = paper + Double((x * 3 + y * 5) % 7 - 3)
                let dx = Double(x) - 80, dy = Double(y) - 90
                let r = (dx * dx + dy * dy).squareRoot()
                if r >= 30 && r < 33 {
                    values[index] = ink
                    ring.insert(index)
                } else if let ruled, y == 20 {
                    values[index] = ruled
                    line.insert(index)
                }
            }
        }
        return (Raster(width: side, height: side, values: values), ring, line)
    }

    /// The pixels of `raster` standing out of its background, the whole
    /// picture counting as paper, the surface measured for dark ink.
    static func standOut(_ raster: Raster) -> StandOutPixels {
        let region = PaperRegion(width: raster.width, height: raster.height, mask: nil, borderBrightShare: 0)
        let cell = BackgroundSurface.cell(width: raster.width, height: raster.height)
        let medians = BackgroundSurface.cellMedians(raster, levels: nil, region: region, cell: cell)
        let surface = BackgroundSurface.estimate(raster, region: region, cell: cell, medians: medians, inkIsDark: true)
        return StandOutPixels(raster, surface: surface, region: region)
    }

    @Test("a dark ring: every ring pixel is in the map near full ink, no paper pixel is")
    func ringIsTheInk() throws {
        let page = Self.page(ink: 60)
        let map = try #require(InkExtractor.inkMap(Self.standOut(page.raster), inkIsDark: true))
        #expect(Set(map.indices) == page.ring)
        // Every ring pixel is drawn at the same level: each is typical ink, 1 within the surface's wobble.
        #expect(map.values.allSatisfy { $0 > 0.9 && $0 <= 1 })
    }

    @Test("a faint ruled line is in the map but weak: strong() keeps the ring alone")
    func ruledLineIsWeak() throws {
        let page = Self.page(ink: 60, ruled: Self.paper - 14)
        let standOut = Self.standOut(page.raster)
        // The line stands out of the noise (or this test would show nothing).
        #expect(14 - 3 > standOut.threshold)
        let map = try #require(InkExtractor.inkMap(standOut, inkIsDark: true))
        #expect(Set(map.indices) == page.ring.union(page.line))
        let strong = InkExtractor.strong(map)
        #expect(Set(strong.indices) == page.ring)
    }

    @Test("no ink on the asked side, or ink under twice the noise threshold, is no ink map")
    func noInk() throws {
        let page = Self.page(ink: 60)
        #expect(InkExtractor.inkMap(Self.standOut(page.raster), inkIsDark: false) == nil)
        let blank = Self.page(ink: Self.paper)
        #expect(InkExtractor.inkMap(Self.standOut(blank.raster), inkIsDark: true) == nil)
        // A ring 12 levels under the paper: beyond the threshold, under twice it.
        let faint = Self.page(ink: Self.paper - 12)
        let standOut = Self.standOut(faint.raster)
        #expect(standOut.dark.indices.count >= faint.ring.count / 2)
        #expect(12 + 3 < 2 * standOut.threshold)
        #expect(InkExtractor.inkMap(standOut, inkIsDark: false) == nil)
        #expect(InkExtractor.inkMap(standOut, inkIsDark: true) == nil)
    }
}
