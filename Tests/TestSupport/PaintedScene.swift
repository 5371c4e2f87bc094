import DigitKit
import Foundation

/// A synthetic grey scene with Examples' digits painted into it three
/// times their size, for tests of where the ink locator finds a digit: a
/// note on a checked cloth, a sheet on a desk with a second digit chalked
/// beside it.
package enum PaintedScene {
    /// One of Examples' digits, its top left corner at `left`, `top`,
    /// painted towards the grey level `ink` as far as it is ink.
    package struct Digit {
        package let image: GrayImage
        package let left: Int, top: Int
        package let ink: Double

        package init(_ example: String, at left: Int, _ top: Int, ink: Double) throws {
            image = try ImageDecoder.forClassification.decode(
                fileAtPath: Fixtures.repositoryRoot.appendingPathComponent("Examples/\(example)").path)
            (self.left, self.top, self.ink) = (left, top, ink)
        }

        /// How much the digit, three times its size, inks the scene's pixel x, y (0 to 1), or nil outside it.
        func coverage(_ x: Int, _ y: Int) -> Double? {
            let (sx, sy) = ((x - left) / 3, (y - top) / 3)
            guard x >= left, y >= top, sx < image.width, sy < image.height else { return nil }
            return Double(image[sx, sy]) / 255
        }
    }

    /// A `width` x `height` picture of `background(x, y)` grey levels with `digits` painted over it.
    package static func make(width: Int, height: Int, background: (Int, Int) -> Double, digits: [Digit]) throws -> GrayImage {
        var pixels = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                var level = background(x, y)
                for digit in digits {
                    if let ink = digit.coverage(x, y) { level = level * (1 - ink) + digit.ink * ink }
                }
                pixels[y * width + x] = UInt8(level.rounded())
            }
        }
        return try GrayImage(width: width, height: height, pixels: pixels)
    }
}
