import DigitKit
import Foundation

/// A small generated drawing of a number, for the reader's property test
/// (ReaderPropertyTests) and its fuzzer (Fuzz/Sources/ReadFuzzer links this
/// file): 1 to 8 glyphs (digit shapes drawn as strokes, blobs, scribbles,
/// dots and bars) 10 to 200 pixels tall, spaced, touching or overlapping,
/// slanted, in either polarity, strong or faint, with specks, pixel noise
/// and a faint edge column as a JPEG leaves one; or a tiny canvas (1x1,
/// 2x30, 30x2, 3x3 ...). Every choice is a byte from `next`, so that a seed
/// or a fuzzer's input decides the whole drawing; a source that runs dry
/// may give zeros.
package struct NumberDrawing {
    package let image: GrayImage
    /// How many glyphs were drawn (0 on a tiny canvas of noise).
    package let glyphCount: Int

    /// The sides of the tiny canvases, drawn as noise.
    package static let tinySides = [(1, 1), (2, 30), (30, 2), (3, 3), (1, 50), (50, 1), (4, 4), (5, 2), (2, 2), (7, 3)]

    package init(_ next: () -> UInt8) {
        func byte() -> Int { Int(next()) }
        func fraction() -> Double { Double(next()) / 255 }
        let darkInk = byte() & 1 == 0
        let background = darkInk ? 180 + byte() % 76 : byte() % 76
        let ink = darkInk ? byte() % 60 : 195 + byte() % 61
        if byte() % 8 == 0 {
            let (width, height) = Self.tinySides[byte() % Self.tinySides.count]
            var canvas = Canvas(width: width, height: height)
            for y in 0..<height {
                for x in 0..<width { canvas.cover(x, y, fraction()) }
            }
            (image, glyphCount) = (canvas.image(background: background, ink: ink, noise: 0, seed: 0), 0)
            return
        }
        let count = 1 + byte() % 8
        // Up to 200 pixels tall, less for many glyphs: the canvas stays within about 600 pixels' width.
        let height = 10 + byte() % min(191, 600 / count)
        let margin = byte() % 24
        let gap = byte() % (height / 2 + 1) - height / 4  // below 0: touching or overlapping
        let slant = (fraction() - 0.5) * 0.6
        var glyphs: [(kind: Int, left: Int, width: Int, top: Int, height: Int, stroke: Double, strength: Double)] = []
        var left = margin
        for _ in 0..<count {
            let kind = byte() % 14
            let glyphHeight = kind == 13 ? max(2, height / 6) : max(4, height - byte() % (height / 4 + 1))
            let width = kind == 1 ? max(2, glyphHeight / 6) : max(2, Int(Double(glyphHeight) * (0.3 + fraction() * 0.9)))
            let top = margin + (kind == 13 ? height - glyphHeight : byte() % (height - glyphHeight + 1))
            let stroke = 0.5 + fraction() * max(0.5, Double(glyphHeight) / 8)
            let strengthByte = byte()
            let strength = strengthByte < 24 ? 0.03 + Double(strengthByte) / 200 : 1
            glyphs.append((kind, left, width, top, glyphHeight, stroke, strength))
            left = max(0, left + width + gap)
        }
        // Sometimes the canvas is cut short of the drawing, so glyphs run off its edges.
        let cut = byte() % 6 == 0
        let width = max(1, cut ? left * (1 + byte() % 8) / 9 : left + margin)
        let canvasHeight = max(1, cut ? (height + 2 * margin) * (1 + byte() % 8) / 9 : height + 2 * margin)
        var canvas = Canvas(width: width, height: canvasHeight)
        for glyph in glyphs {
            let box = (left: Double(glyph.left), top: Double(glyph.top), width: Double(glyph.width), height: Double(glyph.height))
            func point(_ p: (Double, Double)) -> (Double, Double) {
                (box.left + (p.0 + slant * (1 - p.1)) * box.width, box.top + p.1 * box.height)
            }
            switch glyph.kind {
            case 0...9:
                for line in Self.digitStrokes[glyph.kind] {
                    for (a, b) in zip(line, line.dropFirst()) {
                        canvas.stroke(from: point(a), to: point(b), radius: glyph.stroke, strength: glyph.strength)
                    }
                }
            case 10:
                canvas.ellipse(centre: point((0.5, 0.5)), radii: (box.width / 2, box.height / 2), strength: glyph.strength)
            case 11, 12:
                var last = point((fraction(), fraction()))
                for _ in 0..<(2 + byte() % 5) {
                    let next = point((fraction(), fraction()))
                    canvas.stroke(from: last, to: next, radius: glyph.stroke, strength: glyph.strength)
                    last = next
                }
            default:
                // A dot on the baseline or a bar at mid-height.
                let bar = byte() & 1 == 0
                let y = bar ? Double(margin) + Double(height) / 2 : box.top + box.height / 2
                canvas.stroke(from: (box.left, y), to: (box.left + (bar ? box.width : 0), y), radius: glyph.stroke, strength: glyph.strength)
            }
        }
        for _ in 0..<(byte() % 24) {
            let (x, y) = (byte() * width / 256, byte() * canvasHeight / 256)
            canvas.stroke(from: (Double(x), Double(y)), to: (Double(x), Double(y)), radius: Double(byte() % 3), strength: fraction())
        }
        if byte() % 4 == 0 {
            // A faint column along the left edge, as a JPEG's edge leaves one.
            let level = 0.04 + fraction() * 0.08
            for y in 0..<canvasHeight { canvas.cover(0, y, level) }
        }
        let noise = byte() % 4 == 0 ? byte() % 60 : 0
        image = canvas.image(background: background, ink: ink, noise: noise, seed: UInt64(byte()))
        glyphCount = count
    }

    /// Each digit's strokes as polylines in a unit box (x right, y down).
    package static let digitStrokes: [[[(Double, Double)]]] = [
        [(0..<13).map { i in
            let angle = Double(i) / 12 * 2 * Double.pi
            return (0.5 + 0.45 * sin(angle), 0.5 - 0.48 * cos(angle))
        }],
        [[(0.5, 0), (0.5, 1)], [(0.2, 0.2), (0.5, 0)]],
        [[(0.1, 0.25), (0.3, 0.05), (0.7, 0.05), (0.9, 0.25), (0.85, 0.45), (0.1, 1), (0.9, 1)]],
        [[(0.1, 0.1), (0.8, 0.05), (0.9, 0.25), (0.5, 0.5), (0.9, 0.7), (0.85, 0.95), (0.1, 0.95)]],
        [[(0.7, 1), (0.7, 0), (0.05, 0.7), (0.95, 0.7)]],
        [[(0.9, 0), (0.2, 0), (0.1, 0.45), (0.6, 0.4), (0.9, 0.65), (0.8, 0.95), (0.1, 0.95)]],
        [[(0.8, 0.05), (0.3, 0.3), (0.1, 0.7), (0.3, 1), (0.8, 0.95), (0.9, 0.7), (0.6, 0.5), (0.15, 0.65)]],
        [[(0.05, 0), (0.95, 0), (0.4, 1)]],
        [[(0.5, 0.5), (0.15, 0.25), (0.5, 0), (0.85, 0.25), (0.5, 0.5), (0.1, 0.75), (0.5, 1), (0.9, 0.75), (0.5, 0.5)]],
        [[(0.85, 0.35), (0.5, 0.5), (0.15, 0.3), (0.5, 0), (0.85, 0.3), (0.8, 1)]],
    ]
}

/// A plain rasterizer: how much each pixel is covered by ink, 0-1.
package struct Canvas {
    package let width: Int, height: Int
    private var coverage: [Double]

    package init(width: Int, height: Int) {
        (self.width, self.height) = (width, height)
        coverage = Array(repeating: 0, count: width * height)
    }

    /// Raises pixel (x, y)'s coverage to `level`; nothing outside the canvas.
    package mutating func cover(_ x: Int, _ y: Int, _ level: Double) {
        guard x >= 0, x < width, y >= 0, y < height else { return }
        coverage[y * width + x] = max(coverage[y * width + x], level)
    }

    /// A stroke `radius` pixels thick on each side of the segment, its edge
    /// anti-aliased over one pixel.
    package mutating func stroke(from a: (Double, Double), to b: (Double, Double), radius: Double, strength: Double) {
        let reach = radius + 1
        let (dx, dy) = (b.0 - a.0, b.1 - a.1)
        let lengthSquared = dx * dx + dy * dy
        let rows = stride(from: max(0, Int(min(a.1, b.1) - reach)), through: min(height - 1, Int(max(a.1, b.1) + reach)), by: 1)
        let columns = stride(from: max(0, Int(min(a.0, b.0) - reach)), through: min(width - 1, Int(max(a.0, b.0) + reach)), by: 1)
        for y in rows {
            for x in columns {
                let (px, py) = (Double(x) + 0.5, Double(y) + 0.5)
                let t = lengthSquared > 0 ? min(1, max(0, ((px - a.0) * dx + (py - a.1) * dy) / lengthSquared)) : 0
                let distance = ((px - a.0 - t * dx) * (px - a.0 - t * dx) + (py - a.1 - t * dy) * (py - a.1 - t * dy)).squareRoot()
                if distance < reach { cover(x, y, strength * min(1, reach - distance)) }
            }
        }
    }

    /// A filled ellipse.
    package mutating func ellipse(centre: (Double, Double), radii: (Double, Double), strength: Double) {
        let (rx, ry) = (max(0.5, radii.0), max(0.5, radii.1))
        for y in stride(from: max(0, Int(centre.1 - ry)), through: min(height - 1, Int(centre.1 + ry)), by: 1) {
            for x in stride(from: max(0, Int(centre.0 - rx)), through: min(width - 1, Int(centre.0 + rx)), by: 1) {
                let (u, v) = ((Double(x) + 0.5 - centre.0) / rx, (Double(y) + 0.5 - centre.1) / ry)
                if u * u + v * v <= 1 { cover(x, y, strength) }
            }
        }
    }

    /// The picture: `background` where nothing is drawn, `ink` where a pixel
    /// is fully covered, plus uniform noise of up to `noise` grey levels
    /// either way (a fixed generator from `seed`).
    package func image(background: Int, ink: Int, noise: Int, seed: UInt64) -> GrayImage {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        let pixels = coverage.map { level -> UInt8 in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            let jitter = noise > 0 ? Int(state % UInt64(2 * noise + 1)) - noise : 0
            let value = Double(background) + Double(ink - background) * level
            return UInt8(max(0, min(255, Int(value.rounded()) + jitter)))
        }
        // The sides are at least 1 and the pixels as many as they make.
        return try! GrayImage(width: width, height: height, pixels: pixels)
    }
}
