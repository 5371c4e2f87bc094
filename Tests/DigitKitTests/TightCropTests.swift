@testable import DigitKit
import Foundation
import Testing
import TestSupport

/// Otsu's separability and the tight-crop rule that measures a picture's
/// background on its paper alone (`TightCrop.paperSide`).
@Suite("Tight crops on plain paper")
struct TightCropTests {
    /// A 60x40 picture of paper at 220 with a dark bar 12 pixels wide
    /// (level 40) across its whole height, at `x0`, plus `noise` added to
    /// every pixel by a fixed pattern.
    static func bar(at x0: Int, ramp: Double = 0, noise: Double = 0) -> Raster {
        let width = 60, height = 40
        var values = [Double](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let paper = 220 - ramp * Double(x) / Double(width)
                let pattern = Double((x * 7 + y * 13) % 11) / 10 - 0.5
                values[y * width + x] = ((x0..<(x0 + 12)).contains(x) ? 40 : paper) + noise * pattern
            }
        }
        return Raster(width: width, height: height, values: values)
    }

    static func histogram(_ raster: Raster) -> [Double] {
        OtsuLevel.histogram(raster.values)
    }

    @Test("separability: 1 for two levels, 0 for one, below 1 when the classes spread")
    func separability() {
        let two = OtsuLevel.split(Self.histogram(Self.bar(at: 20)))
        #expect(two.separability == 1)
        #expect((40..<220).contains(two.level))
        #expect(OtsuLevel.split([Double](repeating: 0, count: 255) + [10]).separability == 0)
        let spread = OtsuLevel.split(Self.histogram(Self.bar(at: 20, ramp: 120))).separability
        #expect(spread > 0.3 && spread < 0.9, "\(spread)")
        // The level is the one `of` finds from the values.
        let values = Self.bar(at: 20, ramp: 60, noise: 30).values
        #expect(OtsuLevel.split(Self.histogram(Raster(width: 60, height: 40, values: values))).level == OtsuLevel.of(values))
    }

    @Test("a bar along the left edge on plain paper is a tight crop: its paper alone is measured")
    func paperSide() throws {
        let raster = Self.bar(at: 0, noise: 4)
        let whole = PaperRegion(width: 60, height: 40, mask: nil, borderBrightShare: 1)
        let paper = try #require(TightCrop.paperSide(of: raster, region: whole, inkIsDark: true))
        let mask = try #require(paper.mask)
        for (index, value) in raster.values.enumerated() { #expect(mask[index] == (value > 100)) }
        // Light ink on dark paper: the same picture negated, its paper the dark class.
        let negative = Raster(width: 60, height: 40, values: raster.values.map { 255 - $0 })
        let dark = try #require(TightCrop.paperSide(of: negative, region: whole, inkIsDark: false)?.mask)
        #expect(dark == mask)
    }

    @Test("no tight crop: ink reaching two edges, or paper under a shadow")
    func notTight() {
        let whole = PaperRegion(width: 60, height: 40, mask: nil, borderBrightShare: 1)
        // Two edges only: a bar from top to bottom away from the sides.
        #expect(TightCrop.paperSide(of: Self.bar(at: 20), region: whole, inkIsDark: true) == nil)
        // A strong light gradient spreads the paper's class: not two levels.
        let shaded = Self.bar(at: 0, ramp: 150)
        #expect(OtsuLevel.split(Self.histogram(shaded)).separability < TightCrop.twoLevels)
        #expect(TightCrop.paperSide(of: shaded, region: whole, inkIsDark: true) == nil)
        #expect(TightCrop.paperSide(of: Self.bar(at: 0), region: whole, inkIsDark: true) != nil)
    }

    @Test("a histogram of grey levels counts as the plain loop does, with a mask and without, and as its raster's")
    func levelsHistogram() {
        var generator = SplitMix64(seed: 31)
        // An odd count, so that the four interleaved tallies leave a tail.
        let levels = (0..<10_007).map { _ in UInt8(truncatingIfNeeded: generator.next() % 7 == 0 ? generator.next() : 200) }
        let mask = levels.indices.map { _ in generator.next() % 3 != 0 }
        var plain = [Double](repeating: 0, count: 256), masked = plain
        for (index, level) in levels.enumerated() {
            plain[Int(level)] += 1
            if mask[index] { masked[Int(level)] += 1 }
        }
        let values = levels.map(Double.init)
        #expect(OtsuLevel.histogram(levels: levels) == plain)
        #expect(OtsuLevel.histogram(levels: levels, mask: mask) == masked)
        #expect(OtsuLevel.histogram(values) == plain)
        #expect(OtsuLevel.histogram(values, mask: mask) == masked)
    }

    /// Every eighth real-world fixture from `first`, decoded, with its raster.
    static func everyEighthPicture(from first: Int) throws -> [(file: String, image: GrayImage, raster: Raster)] {
        try RealWorldFixture.everyEighth(from: first).map {
            let image = try ImageDecoder().decode(fileAtPath: $0.path)
            return ($0.path, image, Raster(image))
        }
    }

    @Test("the tight-crop rule answers the same from a picture's grey levels as from its raster")
    func paperSideFromLevels() throws {
        let pictures = try Self.everyEighthPicture(from: 0)
        var tight = 0
        for (file, image, raster) in pictures {
            // The whole picture, step 2's region, and all but its left quarter (a mask on every picture).
            let width = raster.width
            let rightPart = raster.values.indices.map { $0 % width >= width / 4 }
            for region in [PaperRegion(width: width, height: raster.height, mask: nil, borderBrightShare: 1),
                           PaperRegion.find(in: raster),
                           PaperRegion(width: width, height: raster.height, mask: rightPart, borderBrightShare: 1)] {
                for inkIsDark in [true, false] {
                    let fromRaster = TightCrop.paperSide(of: raster, region: region, inkIsDark: inkIsDark)
                    let fromLevels = TightCrop.paperSide(of: raster, levels: image.pixels, region: region, inkIsDark: inkIsDark)
                    #expect(fromRaster?.mask == fromLevels?.mask, "\(file)")
                    if fromRaster != nil { tight += 1 }
                }
            }
        }
        #expect(pictures.count >= 30 && tight > 2, "\(pictures.count) files, \(tight) tight crops")
    }

    @Test("the ink's side of Otsu's level read from a picture's bytes is the one read from its raster")
    func inkSideFromLevels() throws {
        let pictures = try Self.everyEighthPicture(from: 4)
        var marked = 0
        for (file, image, raster) in pictures {
            let whole = PaperRegion(width: raster.width, height: raster.height, mask: nil, borderBrightShare: 1)
            let otsu = OtsuLevel.split(OtsuLevel.histogram(raster.values, mask: nil)).level
            for level in [0, otsu, 128, 255] {
                for inkIsDark in [true, false] {
                    let fromBytes = TightCrop.inkSide(of: raster, levels: image.pixels, level: level, region: whole, inkIsDark: inkIsDark)
                    let fromRaster = TightCrop.inkSide(of: raster, levels: nil, level: level, region: whole, inkIsDark: inkIsDark)
                    let same = fromBytes == fromRaster
                    #expect(same, "\(file), level \(level), ink dark \(inkIsDark)")
                    marked += fromBytes.count
                }
            }
        }
        #expect(pictures.count >= 30 && marked > 0)
    }
}
