@testable import DigitKit
import Foundation
import Testing
import TestSupport

/// `MaximumFilter.square`, the van Herk/Gil-Werman filter, and
/// `LocatedInk.nearInk`, the mask of pixels near the located ink, each
/// against the plain filter, and on cases worked by hand.
@Suite("Square maximum filter")
struct MaximumFilterTests {
    @Test("equals the plain filter on random rasters of every shape and radius the pipeline uses, and beyond")
    func equalsPlain() {
        var generator = SplitMix64(seed: 31)
        for (width, height) in [(1, 1), (1, 9), (9, 1), (2, 3), (17, 5), (64, 48), (128, 128), (401, 300)] {
            for radius in [1, 2, 3, 4, 5, 9, 40] {
                let values = (0..<(width * height)).map { _ in Double.random(in: 0...1, using: &generator) }
                let raster = Raster(width: width, height: height, values: values)
                #expect(MaximumFilter.square(raster, radius: radius) == MaximumFilter.plain(raster, radius: radius),
                        "\(width)x\(height), radius \(radius)")
            }
        }
    }

    @Test("a single ink pixel becomes a square of side 2r+1, cut at the edges; radius 0 changes nothing")
    func singlePixel() {
        var values = [Double](repeating: 0, count: 7 * 6)
        values[1 * 7 + 5] = 0.8
        let raster = Raster(width: 7, height: 6, values: values)
        let widened = MaximumFilter.square(raster, radius: 2)
        for y in 0..<6 {
            for x in 0..<7 {
                let inside = (3...6).contains(x) && (0...3).contains(y)
                #expect(widened[x, y] == (inside ? 0.8 : 0), "(\(x), \(y))")
            }
        }
        #expect(MaximumFilter.square(raster, radius: 0) == raster)
    }

    /// What `LocatedInk.nearInk` stands for: the plain filter's values at `keepLevel` or above.
    static func plainNear(_ located: LocatedInk) -> [Bool] {
        MaximumFilter.plain(located.probabilities, radius: located.widening).values.map { $0 >= LocatedInk.keepLevel }
    }

    @Test("the located ink's near mask is the plain filter's, thresholded: blobs anywhere, edges, none, every widening")
    func nearInkEqualsPlain() {
        var generator = SplitMix64(seed: 31)
        for (width, height) in [(1, 1), (5, 3), (40, 30), (97, 128), (300, 200)] {
            for pixelSize in [1.0, 1.5, 2.0, 2.5, 3.125, 4.0] {
                for blobs in [0, 1, 3] {
                    var values = (0..<(width * height)).map { _ in Double.random(in: 0..<LocatedInk.keepLevel, using: &generator) }
                    for _ in 0..<blobs {
                        let x = Int.random(in: 0..<width, using: &generator), y = Int.random(in: 0..<height, using: &generator)
                        for dy in 0..<min(4, height - y) { for dx in 0..<min(3, width - x) { values[(y + dy) * width + x + dx] = 0.9 } }
                    }
                    // A pixel exactly at the level counts as located ink; one just under it does not.
                    if blobs == 1 {
                        values[Int.random(in: 0..<values.count, using: &generator)] = LocatedInk.keepLevel
                        values[Int.random(in: 0..<values.count, using: &generator)] = LocatedInk.keepLevel.nextDown
                    }
                    let located = LocatedInk(probabilities: Raster(width: width, height: height, values: values),
                                             peak: values.max()!, pixelSize: pixelSize)
                    #expect(located.nearInk == Self.plainNear(located), "\(width)x\(height), pixel \(pixelSize), \(blobs) blobs")
                }
            }
        }
    }

    @Test("on the located ink of a photo, the near mask read and classify decide with is the plain filter's")
    func onAPhoto() throws {
        let locator = try InkLocator(path: Fixtures.shippedLocator)
        let photo = try ImageDecoder().decode(fileAtPath: Fixtures.repositoryRoot.appendingPathComponent("Examples/eight-photo-400.png").path)
        let located = try LocatedInk.locate(Preprocessor.analysisRaster(photo), with: locator)
        #expect(located.widening > 1)
        #expect(located.nearInk.contains(true))
        #expect(located.nearInk == Self.plainNear(located))
    }
}
