@_spi(Fuzzing) @testable import DigitKit
import Foundation
import Testing
import TestSupport

/// Drawing-app exports whose strokes are in the alpha channel: light strokes
/// on a transparent canvas decode as dark ink on white; everything else with
/// alpha is composited over white as before, and both PNG paths agree.
@Suite("Strokes in the alpha channel")
struct AlphaInkTests {
    /// An MNIST sample digit (bright on black) scaled up 4 times, nearest
    /// neighbour, with a margin: the alpha of a drawn digit.
    static func alpha(_ sample: String) throws -> GrayImage {
        let digit = try PNGDecoder().decode(fileAtPath: Fixtures.path("mnist-sample/\(sample)"))
        let scale = 4, margin = 16, side = 28 * scale + 2 * margin
        var pixels = [UInt8](repeating: 0, count: side * side)
        for y in 0..<(28 * scale) {
            for x in 0..<(28 * scale) { pixels[(y + margin) * side + x + margin] = digit[x / scale, y / scale] }
        }
        return try GrayImage(width: side, height: side, pixels: pixels)
    }

    /// `alpha` as a brush at `percent` opacity draws it: every pixel scaled, rounded.
    static func brush(_ alpha: GrayImage, percent: Int) throws -> GrayImage {
        try GrayImage(width: alpha.width, height: alpha.height,
                      pixels: alpha.pixels.map { UInt8((Int($0) * percent + 50) / 100) })
    }

    /// An 8-bit PNG of `channels` samples a pixel (2: grey + alpha, 4: RGBA), rows unfiltered.
    static func png(width: Int, height: Int, channels: Int, sample: (_ x: Int, _ y: Int) -> [UInt8]) -> [UInt8] {
        var rows: [UInt8] = []
        for y in 0..<height {
            rows.append(0)
            for x in 0..<width { rows += sample(x, y) }
        }
        return PNGBombs.png(width: width, height: height, depth: 8, colorType: channels == 2 ? 4 : 6,
                            imageData: FixedCodeDeflate.zlib(rows))
    }

    /// Strokes of one colour whose alpha is `alpha`'s pixels.
    static func strokes(_ alpha: GrayImage, colour: [UInt8]) -> [UInt8] {
        png(width: alpha.width, height: alpha.height, channels: colour.count + 1) { x, y in colour + [alpha[x, y]] }
    }

    /// Both PNG paths' pixels, which must be the same; the fast path must take the file.
    static func decoded(_ png: [UInt8]) throws -> GrayImage {
        #expect(try PNGFastPath.decode(png, maxPixels: .max) != nil)
        let (fast, libpng) = PNGFastPathTests.bothPaths(png)
        let image = try fast.get()
        #expect(image == (try libpng.get()))
        return image
    }

    static func inverted(_ alpha: GrayImage) -> [UInt8] { alpha.pixels.map { 255 - $0 } }

    @Test("white, light grey, yellow and red strokes on a transparent canvas decode as 255 - alpha, on both paths",
          arguments: [[255, 255, 255], [200, 200, 200], [255, 230, 0], [255, 0, 0], [255], [180]])
    func lightStrokesAreTheAlpha(colour: [UInt8]) throws {
        let alpha = try Self.alpha("0000-7.png")
        // Red: its luma (76) is dark enough to show over white, so it keeps the compositing.
        let expected = colour == [255, 0, 0]
            ? alpha.pixels.map { GrayConversion.overWhite(76, alpha: $0) } : Self.inverted(alpha)
        #expect(try Self.decoded(Self.strokes(alpha, colour: colour)).pixels == expected)
    }

    @Test("strokes of a brush below full opacity are the alpha too; under half opacity they stay composited",
          arguments: [70, 40])
    func brushBelowFullOpacity(percent: Int) throws {
        let alpha = try Self.brush(try Self.alpha("0000-7.png"), percent: percent)
        let expected = percent >= 50
            ? Self.inverted(alpha) : alpha.pixels.map { GrayConversion.overWhite(255, alpha: $0) }
        #expect(try Self.decoded(Self.strokes(alpha, colour: [255, 255, 255])).pixels == expected)
    }

    @Test("black and dark strokes, an opaque photo and a photo with a soft alpha keep the compositing over white")
    func otherAlphaIsComposited() throws {
        let alpha = try Self.alpha("0001-2.png")
        #expect(try Self.decoded(Self.strokes(alpha, colour: [0, 0, 0])).pixels == Self.inverted(alpha))
        #expect(try Self.decoded(Self.strokes(alpha, colour: [40, 40, 40])).pixels
                == alpha.pixels.map { GrayConversion.overWhite(40, alpha: $0) })
        // A photo-like gradient: colour varies, alpha fully opaque, then with the digit's shape as alpha.
        for shaped in [false, true] {
            let colour = { (x: Int, y: Int) -> [UInt8] in [UInt8(x * 2 % 256), UInt8(y * 2 % 256), UInt8((x + y) % 256)] }
            let png = Self.png(width: alpha.width, height: alpha.height, channels: 4) { x, y in
                colour(x, y) + [shaped ? alpha[x, y] : 255]
            }
            let expected = (0..<(alpha.width * alpha.height)).map { i -> UInt8 in
                let x = i % alpha.width, y = i / alpha.width, c = colour(x, y)
                return GrayConversion.overWhite(GrayConversion.luma(red: c[0], green: c[1], blue: c[2]), alpha: shaped ? alpha[x, y] : 255)
            }
            #expect(try Self.decoded(png).pixels == expected, "shaped \(shaped)")
        }
    }

    @Test("a palette with tRNS and 16-bit RGBA, through libpng, follow the same rule")
    func paletteAndSixteenBit() throws {
        let alpha = try Self.alpha("0002-1.png")
        // Palette entry i: white at opacity i.
        let rows: [UInt8] = (0..<alpha.height).flatMap { y -> [UInt8] in [0] + (0..<alpha.width).map { alpha[$0, y] } }
        let palette = PNGBombs.png(width: alpha.width, height: alpha.height, depth: 8, colorType: 3,
                                   imageData: FixedCodeDeflate.zlib(rows))
        let header = 8 + 25
        let withPalette = Array(palette[..<header]) + PNGBombs.chunk("PLTE", [UInt8](repeating: 255, count: 768))
            + PNGBombs.chunk("tRNS", (0...255).map { UInt8($0) }) + Array(palette[header...])
        #expect(try PNGDecoder().decode(bytes: withPalette).pixels == Self.inverted(alpha))
        let sixteen: [UInt8] = (0..<alpha.height).flatMap { y -> [UInt8] in
            [0] + (0..<alpha.width).flatMap { x -> [UInt8] in [255, 255, 255, 255, 255, 255, alpha[x, y], alpha[x, y]] }
        }
        let png16 = PNGBombs.png(width: alpha.width, height: alpha.height, depth: 16, colorType: 6,
                                 imageData: FixedCodeDeflate.zlib(sixteen))
        #expect(try PNGDecoder().decode(bytes: png16).pixels == Self.inverted(alpha))
    }

    @Test("white and red strokes on a transparent canvas, and white ones of a brush at 70%, classify as their digit through the CLI, with --invert always too")
    func cliReadsThem() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("alpha-ink-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var paths: [String] = []
        for (sample, digit) in [("0000-7.png", 7), ("0001-2.png", 2), ("0004-4.png", 4)] {
            let drawn = try Self.alpha(sample)
            // The last: a brush at 70% opacity, under the bar of 224 that shapes once had to reach.
            for (name, alpha, colour) in [("white", drawn, [UInt8]([255, 255, 255])), ("red", drawn, [255, 0, 0]),
                                          ("white-grey", drawn, [255]),
                                          ("white-brush", try Self.brush(drawn, percent: 70), [255, 255, 255])] {
                let path = "\(folder)/\(digit)-\(name).png"
                try Data(Self.strokes(alpha, colour: colour)).write(to: URL(fileURLWithPath: path))
                paths.append(path)
            }
        }
        for invert in [[], ["--invert", "always"]] {
            let result = try CommandRunner.digits(["classify", "--format", "csv"] + invert + paths)
            #expect(result.status == 0, "\(result.stderr)")
            for (path, row) in zip(paths, result.stdoutLines.dropFirst()) {
                let digit = URL(fileURLWithPath: path).lastPathComponent.prefix(1)
                #expect(row.hasPrefix("\(path),,digit,\(digit),"), "\(invert): \(row)")
            }
        }
    }
}
