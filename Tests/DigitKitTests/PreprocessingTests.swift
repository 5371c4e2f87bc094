@testable import DigitKit
import Foundation
import Testing
import TestSupport

/// The plain (raw) preprocessing path: area-averaging resize to 28x28, then
/// ToTensor + Normalize arithmetic.
@Suite("Plain preprocessing")
struct PreprocessingTests {
    /// A deterministic pseudo-random image (xorshift), so failures reproduce.
    static func noiseImage(width: Int, height: Int, seed: UInt64) throws -> GrayImage {
        var state = seed
        let pixels = (0..<(width * height)).map { _ -> UInt8 in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return UInt8(truncatingIfNeeded: state >> 24)
        }
        return try GrayImage(width: width, height: height, pixels: pixels)
    }

    /// Expected values printed by torchvision 0.14's ToTensor + Normalize((0.1307,), (0.3081,)).
    @Test("normalizes black, white and grey as ToTensor + Normalize do")
    func normalization() throws {
        for (value, expected) in [(UInt8(0), Float(-0.4242129623889923)), (255, 2.821486711502075), (128, 1.2050011157989502)] {
            let image = try GrayImage(width: 28, height: 28, pixels: Array(repeating: value, count: 784))
            let tensor = try #require(Preprocessor(mode: .raw).tensor(for: image))
            #expect(tensor.values.allSatisfy { abs($0 - expected) < 1e-6 }, "pixel \(value)")
        }
    }

    @Test("a 28x28 image passes through unchanged")
    func identityAt28() throws {
        let image = try Self.noiseImage(width: 28, height: 28, seed: 7)
        let tensor = try #require(Preprocessor(mode: .raw).tensor(for: image))
        for (value, pixel) in zip(tensor.values, image.pixels) {
            #expect(DigitTensor.intensity(ofNormalized: value) * 255 - Float(pixel) < 1e-3)
        }
    }

    @Test("shrinking by 2 averages each 2x2 block")
    func halving() throws {
        let image = try Self.noiseImage(width: 56, height: 56, seed: 3)
        let resized = AreaResampler.resize(image, targetWidth: 28, targetHeight: 28).values
        for y in 0..<28 {
            for x in 0..<28 {
                let block = [image[2 * x, 2 * y], image[2 * x + 1, 2 * y], image[2 * x, 2 * y + 1], image[2 * x + 1, 2 * y + 1]]
                let mean = Double(block.map(Int.init).reduce(0, +)) / 4
                #expect(abs(resized[y * 28 + x] - mean) < 1e-3)
            }
        }
    }

    @Test("area averaging keeps the mean brightness at any scale", arguments: [(400, 300), (29, 1000), (5, 7), (1, 1), (100, 28)])
    func keepsMean(width: Int, height: Int) throws {
        let image = try Self.noiseImage(width: width, height: height, seed: UInt64(width * 31 + height))
        let resized = AreaResampler.resize(image, targetWidth: 28, targetHeight: 28).values
        let before = image.pixels.map(Double.init).reduce(0, +) / Double(image.pixels.count)
        let after = resized.reduce(0, +) / Double(resized.count)
        #expect(abs(before - after) < 0.01)
        #expect(resized.allSatisfy { $0 >= -1e-3 && $0 <= 255.001 })
    }

    @Test("shrinking does not alias: a fine checkerboard becomes flat grey")
    func noAliasing() throws {
        let side = 28 * 14
        let pixels = (0..<(side * side)).map { i in ((i % side) + (i / side)) % 2 == 0 ? UInt8(255) : 0 }
        let tensor = try #require(Preprocessor(mode: .raw).tensor(for: try GrayImage(width: side, height: side, pixels: pixels)))
        let intensities = tensor.values.map { DigitTensor.intensity(ofNormalized: $0) }
        #expect(intensities.allSatisfy { abs($0 - 0.5) < 0.01 })
    }
}
