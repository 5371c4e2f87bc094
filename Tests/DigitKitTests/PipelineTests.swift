@testable import DigitKit
import Foundation
import Testing
import TestSupport

/// Properties of the MNIST pipeline on pictures made in the test, so each
/// step's promise is checked on its own.
@Suite("MNIST pipeline")
struct PipelineTests {
    /// The first regression sample (a 7): a light digit on black, 28x28.
    static func mnistSeven() throws -> GrayImage {
        try PNGDecoder().decode(fileAtPath: try #require(MNISTSample.all.first).path)
    }

    /// `digit` enlarged by `factor` (nearest) and pasted at (x, y) on a canvas of `background`, ink `ink`.
    static func canvas(_ digit: GrayImage, factor: Int, width: Int, height: Int, x: Int, y: Int,
                       background: UInt8, ink: UInt8) throws -> GrayImage {
        var pixels = [UInt8](repeating: background, count: width * height)
        for dy in 0..<(digit.height * factor) {
            for dx in 0..<(digit.width * factor) {
                let coverage = Double(digit[dx / factor, dy / factor]) / 255
                let value = Double(background) * (1 - coverage) + Double(ink) * coverage
                pixels[(y + dy) * width + x + dx] = UInt8(value.rounded())
            }
        }
        return try GrayImage(width: width, height: height, pixels: pixels)
    }

    static func centreOfMass(_ tensor: DigitTensor) -> (x: Double, y: Double) {
        var mass = 0.0, mx = 0.0, my = 0.0
        for y in 0..<28 {
            for x in 0..<28 {
                let v = Double(DigitTensor.intensity(ofNormalized: tensor[x, y]))
                mass += v; mx += Double(x) * v; my += Double(y) * v
            }
        }
        return (mx / mass, my / mass)
    }

    static func inkBox(_ tensor: DigitTensor) -> (width: Int, height: Int) {
        let ink = (0..<784).filter { DigitTensor.intensity(ofNormalized: tensor.values[$0]) > 0.01 }
        let xs = ink.map { $0 % 28 }, ys = ink.map { $0 / 28 }
        return (xs.max()! - xs.min()! + 1, ys.max()! - ys.min()! + 1)
    }

    @Test("dark ink on white paper gives the same tensor as light ink on black")
    func polarityIsUndone() throws {
        let seven = try Self.mnistSeven()
        let light = try #require(Preprocessor().tensor(for: try Self.canvas(seven, factor: 4, width: 200, height: 160, x: 30, y: 20, background: 0, ink: 255)))
        let dark = try #require(Preprocessor().tensor(for: try Self.canvas(seven, factor: 4, width: 200, height: 160, x: 30, y: 20, background: 255, ink: 0)))
        #expect(zip(light.values, dark.values).allSatisfy { abs($0 - $1) < 1e-4 })
        let stages = Preprocessor().process(try Self.canvas(seven, factor: 4, width: 200, height: 160, x: 30, y: 20, background: 255, ink: 0))
        #expect(stages.inverted == true)
        // --invert never keeps dark ink dark: the "ink" found is then the paper around the digit.
        let kept = Preprocessor(inversion: .never).process(try Self.canvas(seven, factor: 4, width: 200, height: 160, x: 30, y: 20, background: 255, ink: 0))
        #expect(kept.inverted == false)
        #expect(kept.tensor != dark)
    }

    @Test("the digit's longer side becomes 20 pixels and its centre of mass MNIST's, pixel 14", arguments: [(1, 0, 0), (3, 5, 90), (7, 300, 17)])
    func sizeAndCentre(factor: Int, x: Int, y: Int) throws {
        let picture = try Self.canvas(try Self.mnistSeven(), factor: factor, width: 28 * factor + x + 40, height: 28 * factor + y + 10,
                                      x: x, y: y, background: 0, ink: 255)
        let tensor = try #require(Preprocessor().tensor(for: picture))
        let box = Self.inkBox(tensor)
        #expect(max(box.width, box.height) == 20)
        let centre = Self.centreOfMass(tensor)
        #expect(abs(centre.x - 14) <= 0.5 && abs(centre.y - 14) <= 0.5, "centre \(centre)")
    }

    @Test("the same digit anywhere on the canvas gives the same tensor")
    func positionDoesNotMatter() throws {
        let seven = try Self.mnistSeven()
        let a = try #require(Preprocessor().tensor(for: try Self.canvas(seven, factor: 3, width: 300, height: 200, x: 10, y: 10, background: 230, ink: 20)))
        let b = try #require(Preprocessor().tensor(for: try Self.canvas(seven, factor: 3, width: 300, height: 200, x: 200, y: 110, background: 230, ink: 20)))
        #expect(a == b)
    }

    @Test("isolated specks are ignored")
    func specksAreIgnored() throws {
        let seven = try Self.mnistSeven()
        let clean = try Self.canvas(seven, factor: 3, width: 240, height: 200, x: 100, y: 60, background: 240, ink: 10)
        var pixels = clean.pixels
        for (sx, sy) in [(10, 10), (220, 30), (30, 180), (200, 185)] {
            for d in [0, 1, 240, 241] { pixels[sy * 240 + sx + d] = 0 }  // 2x2 specks
        }
        let specked = try GrayImage(width: 240, height: 200, pixels: pixels)
        #expect(Preprocessor().tensor(for: specked) == Preprocessor().tensor(for: clean))
    }

    /// The digit's box (the cleaned ink) of MNIST's seven drawn 3x at (`x`,
    /// 60) on a 240x200 canvas at level 240, ink 10, and of the same canvas
    /// with the pixels in `columns` x `rows` made at least as dark as `level`.
    static func inkBoxes(x: Int, columns: Range<Int>, rows: Range<Int>, level: UInt8) throws -> (alone: Raster, marked: Raster) {
        let clean = try canvas(try mnistSeven(), factor: 3, width: 240, height: 200, x: x, y: 60, background: 240, ink: 10)
        var pixels = clean.pixels
        for y in rows { for x in columns { pixels[y * 240 + x] = min(pixels[y * 240 + x], level) } }
        let marked = try GrayImage(width: 240, height: 200, pixels: pixels)
        return (try #require(Preprocessor().process(clean).ink), try #require(Preprocessor().process(marked).ink))
    }

    /// A mark drawn on the seven's canvas (`inkBoxes`): where, how dark it
    /// is when it must stay out of the digit's box, and how dark when it
    /// must join it (nil: never).
    struct Mark: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let x: Int, columns: Range<Int>, rows: Range<Int>
        let leftOut: UInt8, joins: UInt8?
    }

    static let marks = [
        // A line two pixels wide and 120 long, 6 pixels right of the seven's
        // canvas: as large as a stroke, but a sixth of its contrast. As dark
        // as the digit's strokes it is kept: it could be part of it.
        Mark(testDescription: "a faint trace beside the digit (a shadow's edge)",
             x: 80, columns: 170..<172, rows: 40..<160, leftOut: 200, joins: 10),
        // A band 14 pixels wide from top to bottom: more pixels than the
        // seven's strokes, at a sixth of their contrast.
        Mark(testDescription: "a faint trace larger than the digit (a sheet's shaded edge)",
             x: 60, columns: 200..<214, rows: 0..<200, leftOut: 200, joins: nil),
        // A line across the canvas through the seven, 18 levels below the
        // paper: above the noise, under a tenth of the ink's contrast. At a
        // fifth of it, it is ink and joins the digit.
        Mark(testDescription: "weak ink touching the digit (a shadow's soft rim)",
             x: 60, columns: 0..<240, rows: 100..<103, leftOut: 222, joins: 190),
    ]

    @Test("a faint or weak mark stays out of the digit's box; a dark one joins it", arguments: marks)
    func markBesideTheDigit(_ mark: Mark) throws {
        let faint = try Self.inkBoxes(x: mark.x, columns: mark.columns, rows: mark.rows, level: mark.leftOut)
        #expect(faint.marked.width == faint.alone.width && faint.marked.height == faint.alone.height)
        if let joins = mark.joins {
            let dark = try Self.inkBoxes(x: mark.x, columns: mark.columns, rows: mark.rows, level: joins)
            #expect(dark.marked.width > dark.alone.width)
        }
    }

    @Test("a blank or near-blank picture has no digit", arguments: [0, 128, 255])
    func blankHasNoDigit(level: UInt8) throws {
        #expect(Preprocessor().tensor(for: try GrayImage(width: 50, height: 40, pixels: Array(repeating: level, count: 2000))) == nil)
        // Faint noise of +-3 levels around the paper level, and one dust speck.
        var state: UInt32 = 12345
        var pixels = (0..<2000).map { _ -> UInt8 in
            state = state &* 1_103_515_245 &+ 12345
            return UInt8(clamping: Int(level) + Int(state >> 16) % 7 - 3)
        }
        pixels[1000] = level > 128 ? 0 : 255
        #expect(Preprocessor().tensor(for: try GrayImage(width: 50, height: 40, pixels: pixels)) == nil)
    }

    @Test("a 64-megapixel-class picture is analysed at 512 pixels")
    func largePicturesAreShrunkFirst() throws {
        let picture = try Self.canvas(try Self.mnistSeven(), factor: 40, width: 2000, height: 1200, x: 300, y: 40, background: 250, ink: 5)
        let stages = Preprocessor().process(picture)
        #expect(stages.gray.width == 512 && stages.gray.height == 307)
        #expect(stages.tensor != nil)
    }
}

@Suite("Robust statistics")
struct RobustStatisticsTests {
    @Test("selection finds the same value as sorting, for every rank", arguments: [1, 2, 7, 9, 25, 32, 33, 100, 1001])
    func selectionMatchesSorting(count: Int) {
        var state: UInt64 = UInt64(count)
        let values = (0..<count).map { _ -> Double in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 58)  // few distinct values: many ties
        }
        let sorted = values.sorted()
        for rank in 0..<count {
            var work = values
            #expect(RobustStatistics.select(&work, rank: rank) == sorted[rank])
        }
        #expect(RobustStatistics.percentile(values, 0.9) == sorted[Int((0.9 * Double(count - 1)).rounded(.down))])
    }

    @Test("the median of nine (the 3x3 windows' network) is sorting's middle value: all 512 windows of 0s and 1s, and 20,000 random ones")
    func medianOfNine() {
        var disagreements = 0
        // A network of exchanges that selects the middle of every 0-1 input
        // selects it of every input (the 0-1 principle).
        for bits in 0..<512 {
            let values = (0..<9).map { Double(bits >> $0 & 1) }
            var work = values
            if work.withUnsafeMutableBufferPointer({ RobustStatistics.lowerMedian(reordering: $0) }) != values.sorted()[4] { disagreements += 1 }
        }
        var state: UInt64 = 9
        for window in 0..<20_000 {
            let values = (0..<9).map { _ -> Double in
                state = state &* 6364136223846793005 &+ 1442695040888963407
                // Half the windows with ties, half with distinct values.
                return window.isMultiple(of: 2) ? Double(state >> 61) : Double(state >> 11) / 1e3
            }
            var work = values
            if work.withUnsafeMutableBufferPointer({ RobustStatistics.lowerMedian(reordering: $0) }) != values.sorted()[4] { disagreements += 1 }
        }
        #expect(disagreements == 0)
    }

    /// A small linear congruential generator: the same numbers on every run.
    struct Numbers {
        var state: UInt64
        mutating func next(below bound: UInt64) -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return (state >> 11) % bound
        }
    }

    @Test("the noise threshold's shortcuts give max(8, 3 x 1.4826 x the lower median of the magnitudes), masked or not")
    func noiseThresholdMatchesItsDefinition() {
        var numbers = Numbers(state: 11)
        for trial in 0..<300 {
            let count = 500 + Int(numbers.next(below: 3000))
            let spread = [0.5, 1.5, 2.0, 3.0, 8.0, 40.0, 120.0][trial % 7]
            // Residuals in millionths of a level, as StandOutPixels keeps them.
            let residuals = (0..<count).map { index -> Int32 in
                let sign: Int32 = numbers.next(below: 2) == 0 ? -1 : 1
                // Every seventh on an edge between two bins (2^14 millionths).
                if index % 7 == 0 { return sign * Int32(numbers.next(below: UInt64(61 * spread) + 1) << 14) }
                return sign * Int32(numbers.next(below: UInt64(3_000_000 * spread) + 1))
            }
            let mask: [Bool]? = trial.isMultiple(of: 2) ? nil : (0..<count).map { _ in numbers.next(below: 3) != 0 }
            let region = PaperRegion(width: count, height: 1, mask: mask, borderBrightShare: 0)
            let inside = residuals.indices.filter { mask?[$0] ?? true }.map { abs(Double(residuals[$0]) / 1e6) }.sorted()
            let expected = inside.isEmpty ? 8 : max(8, 3 * 1.4826 * inside[(inside.count - 1) / 2])
            #expect(StandOutPixels.noiseThreshold(residuals, region: region) == expected, "trial \(trial)")
        }
    }

    @Test("a residual's whole number of millionths is the rounded residual, ties to even")
    func wholeMillionths() {
        var numbers = Numbers(state: 17)
        for trial in 0..<20_000 {
            // Half on a tie (half a millionth), half anywhere.
            let whole = Double(numbers.next(below: 510_000_001)) - 255_000_000
            let residual = trial.isMultiple(of: 2) ? (whole + 0.5) / 1e6 : (whole + Double(numbers.next(below: 1000)) / 1000) / 1e6
            let micro = StandOutPixels.wholeNearest(residual * 1e6)
            #expect(Double(micro) == (residual * 1e6).rounded(.toNearestOrEven), "\(residual)")
            #expect(StandOutPixels.level(micro) == (residual * 1e6).rounded(.toNearestOrEven) / 1e6)
        }
    }

    @Test("cell medians counted from the bytes equal those found by selection, masked or not")
    func cellMediansFromBytes() {
        var numbers = Numbers(state: 5)
        for trial in 0..<200 {
            let width = 20 + Int(numbers.next(below: 70)), height = 20 + Int(numbers.next(below: 70))
            let levels = (0..<(width * height)).map { _ in UInt8(numbers.next(below: trial % 3 == 0 ? 4 : 256)) }
            let raster = Raster(width: width, height: height, values: levels.map(Double.init))
            let mask: [Bool]? = trial.isMultiple(of: 2) ? nil : (0..<(width * height)).map { _ in numbers.next(below: 4) != 0 }
            let region = PaperRegion(width: width, height: height, mask: mask, borderBrightShare: 0)
            let cell = 4 + Int(numbers.next(below: 9))
            let counted = BackgroundSurface.cellMedians(raster, levels: levels, region: region, cell: cell)
            let selected = BackgroundSurface.cellMedians(raster, levels: nil, region: region, cell: cell)
            #expect(zip(counted.cells, selected.cells).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) }, "trial \(trial)")
        }
    }

    @Test("the pixels beyond the threshold are those whose level exceeds it, in order, masked or not")
    func beyondTheThreshold() {
        var numbers = Numbers(state: 3)
        for count in [0, 1, 7, 8, 9, 63, 64, 65, 1000] {
            for threshold in [8.0, 8.5, 9.699_762_24, 12.345_678_9] {
                let values = (0..<count).map { _ in Int32(numbers.next(below: 40_000_001)) - 20_000_000 }
                // A few exactly at the threshold and a millionth either side.
                let edges = values.indices.map { index -> Int32 in
                    guard index % 5 == 0 else { return values[index] }
                    let edge = Int32((threshold * 1e6).rounded()) + Int32(index % 3) - 1
                    return index.isMultiple(of: 2) ? edge : -edge
                }
                let mask: [Bool]? = count % 2 == 0 ? nil : edges.indices.map { _ in numbers.next(below: 4) != 0 }
                let region = PaperRegion(width: max(count, 1), height: 1, mask: count == 0 ? nil : mask, borderBrightShare: 0)
                let found = edges.withUnsafeBufferPointer {
                    StandOutPixels.indicesBeyond(StandOutPixels.leastBeyond(threshold), in: $0, region: region)
                }
                let expected = edges.indices.filter {
                    abs(StandOutPixels.level(edges[$0])) > threshold && (mask?[$0] ?? true)
                }
                #expect(found == expected, "\(count) values, threshold \(threshold)")
            }
        }
    }
}
