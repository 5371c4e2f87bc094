@testable import DigitKit
import Testing
import TestSupport

/// `MNISTNormalizer` alone: the digit's box scaled to 20 pixels on its
/// longer side, aspect kept, then placed in 28x28 by its centre of mass.
@Suite("MNIST normalizer")
struct MNISTNormalizerTests {
    /// A `width`x`height` box (0-255) holding a 7: a bar along the top and
    /// a diagonal stroke from its right end to the bottom, both `stroke` wide.
    /// Its centre of mass lies up and right of the box's centre.
    static func seven(width: Int, height: Int, stroke: Int) -> Raster {
        var box = Raster(width: width, height: height, values: [Double](repeating: 0, count: width * height))
        for y in 0..<height {
            for x in 0..<width {
                let diagonalX = Double(width - 1) * (1 - 0.6 * Double(y) / Double(height - 1))
                if y < stroke || abs(Double(x) - diagonalX) < Double(stroke) / 2 { box[x, y] = 255 }
            }
        }
        return box
    }

    /// The intensity-weighted centre of mass of `raster`, in pixel coordinates.
    static func centreOfMass(_ raster: Raster) -> (x: Double, y: Double) {
        var mass = 0.0, mx = 0.0, my = 0.0
        for y in 0..<raster.height {
            for x in 0..<raster.width {
                mass += raster[x, y]; mx += Double(x) * raster[x, y]; my += Double(y) * raster[x, y]
            }
        }
        return (mx / mass, my / mass)
    }

    /// The box around the non-zero pixels of `raster`.
    static func inkBox(_ raster: Raster) -> BoundingBox {
        var box = BoundingBox(minX: .max, minY: .max, maxX: .min, maxY: .min)
        for y in 0..<raster.height {
            for x in 0..<raster.width where raster[x, y] > 0 { box.include(BoundingBox(minX: x, minY: y, maxX: x, maxY: y)) }
        }
        return box
    }

    @Test("scaled: the longer side becomes 20 pixels and the aspect is kept, shrinking or enlarging",
          arguments: [(100, 50), (60, 90), (7, 14), (33, 200), (20, 20)])
    func scaledToTwenty(width: Int, height: Int) {
        let scaled = MNISTNormalizer.scaled(Self.seven(width: width, height: height, stroke: max(1, width / 8)))
        #expect(max(scaled.width, scaled.height) == 20)
        let scale = 20 / Double(max(width, height))
        #expect(abs(Double(scaled.width) - Double(width) * scale) <= 0.5)
        #expect(abs(Double(scaled.height) - Double(height) * scale) <= 0.5)
    }

    @Test("a 7 drawn 60x90: its ink spans 20 pixels high in the field, centre of mass within half a pixel of pixel 14")
    func sevenCentredByMass() throws {
        let box = Self.seven(width: 60, height: 90, stroke: 10)
        let scaled = MNISTNormalizer.scaled(box)
        let field = try #require(MNISTNormalizer.centred(scaled))
        #expect(field.width == 28 && field.height == 28)
        let ink = Self.inkBox(field)
        #expect(max(ink.width, ink.height) == 20)
        let centre = Self.centreOfMass(field)
        #expect(abs(centre.x - 14) <= 0.5 && abs(centre.y - 14) <= 0.5)
        // Centred by mass, not by box: the 7's heavy top right pulls its box left and down of the middle.
        #expect(ink.minX + ink.maxX < 27 && ink.minY + ink.maxY > 27)
        // Nothing was cut off.
        #expect(abs(field.values.reduce(0, +) - scaled.values.reduce(0, +)) < 1e-6)
    }

    /// MNIST's digits have their centre of mass within half a pixel of 14
    /// each way (of the 10,000 test digits one lies on the edge, at 13.5,
    /// and is moved a pixel: not one of this sample). At 13.5 about half of
    /// them would move.
    @Test("MNIST's own test digits, cut to their ink, are placed back exactly where MNIST put them")
    func mnistDigitsStayPut() throws {
        #expect(MNISTSample.all.count > 100)
        for sample in MNISTSample.all {
            let image = try PNGDecoder().decode(fileAtPath: sample.path)
            let digit = Raster(image)
            let ink = Self.inkBox(digit)
            let box = Raster(image.cropped(to: PixelRectangle(x: ink.minX, y: ink.minY, width: ink.width, height: ink.height)))
            let field = try #require(MNISTNormalizer.centred(box))
            #expect(field == digit, "\(sample.file)")
        }
    }

    @Test("ink all at one edge is shifted as far as the field allows, never cut off")
    func neverCutOff() throws {
        var box = Raster(width: 20, height: 20, values: [Double](repeating: 0, count: 400))
        for y in 0..<20 { box[0, y] = 255 }
        let field = try #require(MNISTNormalizer.centred(box))
        // The mass at column 0 would go to column 14; the box's 20 columns must fit in 28: from column 8.
        // Down, the mass at row 9.5 moves by 4.5 rows to pixel 14, rounded up to 5: rows 5 to 24.
        #expect(Self.inkBox(field) == BoundingBox(minX: 8, minY: 5, maxX: 8, maxY: 24))
        #expect(field.values.reduce(0, +) == 20 * 255)
    }

    @Test("an empty box has no field")
    func emptyBox() {
        #expect(MNISTNormalizer.centred(Raster(width: 5, height: 3, values: [Double](repeating: 0, count: 15))) == nil)
    }
}
