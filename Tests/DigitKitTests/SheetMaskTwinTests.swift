@testable import DigitKit
import Testing
import TestSupport

/// The sheet's fast loops (`PaperRegion.bounds`, `PaperRegion.upscaled`,
/// `PaperRegion.edgeSharpness`, `LocatedInk.within`) against plain twins
/// written pixel by pixel, on seeded random masks, pictures and maps.
@Suite("Sheet and mask: fast loops and their plain twins")
struct SheetMaskTwinTests {
    /// A mask of `width` x `height` whose pixels are set with probability
    /// `share`, or a sheet-like rectangle when `share` is nil.
    static func mask(width: Int, height: Int, share: Double?, _ random: inout SplitMix64) -> [Bool] {
        guard let share else {
            let x0 = Int.random(in: 0..<width, using: &random), y0 = Int.random(in: 0..<height, using: &random)
            let x1 = Int.random(in: x0..<width, using: &random), y1 = Int.random(in: y0..<height, using: &random)
            return (0..<(width * height)).map { (x0...x1).contains($0 % width) && (y0...y1).contains($0 / width) }
        }
        return (0..<(width * height)).map { _ in Double.random(in: 0..<1, using: &random) < share }
    }

    /// The box around the set pixels, grown one pixel at a time.
    static func plainBounds(_ mask: [Bool], width: Int) -> BoundingBox? {
        var box: BoundingBox?
        for (index, inside) in mask.enumerated() where inside {
            let pixel = BoundingBox(minX: index % width, minY: index / width, maxX: index % width, maxY: index / width)
            if box == nil { box = pixel } else { box!.include(pixel) }
        }
        return box
    }

    @Test("bounds is the box a pixel-by-pixel pass grows", arguments: [nil, 0, 0.0005, 0.01, 0.5, 1] as [Double?])
    func bounds(share: Double?) {
        var random = SplitMix64(seed: 31)
        for (width, height) in [(1, 1), (7, 3), (64, 48), (400, 300), (301, 517)] {
            let mask = Self.mask(width: width, height: height, share: share, &random)
            let region = PaperRegion(width: width, height: height, mask: mask, borderBrightShare: 0)
            #expect(region.bounds == Self.plainBounds(mask, width: width), "\(width)x\(height), share \(String(describing: share))")
        }
    }

    /// The steepest two-pixel step in the window of three cells each way
    /// around every boundary cell, made pixel by pixel for each window.
    static func plainEdgeSharpness(_ raster: Raster, boundary: CellGrid<Bool>, scale: Double) -> Double {
        let width = raster.width, height = raster.height
        var steps: [Double] = []
        for cy in 0..<boundary.height {
            for cx in 0..<boundary.width where boundary[cx, cy] {
                let x0 = Int(Double(cx - 1) / scale), x1 = min(width, Int(Double(cx + 2) / scale))
                let y0 = Int(Double(cy - 1) / scale), y1 = min(height, Int(Double(cy + 2) / scale))
                guard x1 > x0, y1 > y0 else { continue }
                var steepest = 0.0
                for y in y0..<y1 { for x in x0..<x1 { steepest = max(steepest, PaperRegion.steepestStep(raster, x, y)) } }
                steps.append(steepest)
            }
        }
        return steps.isEmpty ? 0 : RobustStatistics.lowerMedian(steps)
    }

    @Test("edgeSharpness makes each cell's steepest step once and gives what every window's pixels give")
    func edgeSharpness() {
        var random = SplitMix64(seed: 34)
        for (width, height, share) in [(512, 384, 0.3), (384, 512, 0.05), (400, 400, 1.0), (97, 523, 0.5), (64, 48, 0.2)] {
            let scale = Double(PaperRegion.side) / Double(max(width, height))
            let cellsWide = PaperRegion.cellCount(width, scale: scale), cellsHigh = PaperRegion.cellCount(height, scale: scale)
            // A sheet with a soft edge on grain, so that the windows' steepest steps differ.
            let values = (0..<(width * height)).map { index -> Double in
                let x = index % width, y = index / width
                let sheet = (width / 5..<(4 * width / 5)).contains(x) && (height / 6..<(5 * height / 6)).contains(y)
                return (sheet ? 200 : 60) + Double.random(in: -20...20, using: &random)
            }
            let raster = Raster(width: width, height: height, values: values)
            var boundary = CellGrid(width: cellsWide, height: cellsHigh, cells: Self.mask(width: cellsWide, height: cellsHigh,
                                                                                       share: share, &random))
            for y in 0..<cellsHigh { for x in 0..<cellsWide where boundary.isOnFrame(x: x, y: y) { boundary[x, y] = false } }
            #expect(PaperRegion.edgeSharpness(raster, boundary: boundary, scale: scale)
                    == Self.plainEdgeSharpness(raster, boundary: boundary, scale: scale), "\(width)x\(height)")
        }
    }

    @Test("upscaled gives each pixel its cell, as a lookup per pixel does")
    func upscaled() {
        var random = SplitMix64(seed: 32)
        for (width, height) in [(400, 300), (300, 400), (64, 64), (523, 97), (48, 200)] {
            let scale = Double(PaperRegion.side) / Double(max(width, height))
            let cellsWide = PaperRegion.cellCount(width, scale: scale), cellsHigh = PaperRegion.cellCount(height, scale: scale)
            let cells = Self.mask(width: cellsWide, height: cellsHigh, share: 0.4, &random)
            let region = CellGrid(width: cellsWide, height: cellsHigh, cells: cells)
            let columns = (0..<width).map { min(Int((Double($0) + 0.5) * scale), cellsWide - 1) }
            var plain = [Bool](repeating: false, count: width * height)
            for y in 0..<height {
                let row = min(Int((Double(y) + 0.5) * scale), cellsHigh - 1)
                for x in 0..<width { plain[y * width + x] = region[columns[x], row] }
            }
            #expect(PaperRegion.upscaled(region, width: width, height: height, columns: columns, scale: scale) == plain,
                    "\(width)x\(height)")
        }
    }

    @Test("within zeroes the map off the sheet and counts what is on it, as a branchy loop does")
    func within() {
        var random = SplitMix64(seed: 33)
        for (width, height, share) in [(128, 96, 0.6), (400, 300, 0.9), (50, 70, 0.1), (33, 17, 1.0)] {
            let mask = Self.mask(width: width, height: height, share: share, &random)
            let values = (0..<(width * height)).map { _ in
                Double.random(in: 0..<1, using: &random) < 0.8 ? Double.random(in: 0..<0.3, using: &random)
                    : Double.random(in: 0...1, using: &random)
            }
            let look = LocatedInk(probabilities: Raster(width: width, height: height, values: values), peak: 1, pixelSize: 2)
            var plainValues = values, offSheet = false, peak = 0.0, inkCount = 0
            for index in plainValues.indices {
                if mask[index] {
                    peak = max(peak, values[index])
                    if values[index] >= LocatedInk.inkLevel { inkCount += 1 }
                } else {
                    if values[index] >= LocatedInk.keepLevel { offSheet = true }
                    plainValues[index] = 0
                }
            }
            let sheet = PaperRegion(width: width, height: height, mask: mask, borderBrightShare: 0)
            let within = look.within(sheet)
            #expect((within != nil) == offSheet, "\(width)x\(height)")
            if let within {
                #expect(within.probabilities.values == plainValues)
                #expect(within.peak == peak)
                #expect(within.inkPixels == Int((Double(inkCount) / 4).rounded()))
            }
        }
    }
}
