/// Draws a 28x28 digit tensor as text, one tensor row per line, so that one
/// can see exactly what the model was given.
public struct AsciiRenderer: Sendable {
    /// Glyphs from background (first) to full ink (last).
    public static let defaultRamp = Array(" .:-=+*#%@")

    /// Glyphs from background (first) to full ink (last); at least two.
    public let ramp: [Character]
    /// Characters per pixel; 2 makes the picture roughly square in a terminal.
    public let pixelWidth: Int

    /// A renderer with these glyphs and this width; a precondition checks that
    /// `ramp` has at least 2 glyphs and `pixelWidth` is at least 1.
    public init(ramp: [Character] = AsciiRenderer.defaultRamp, pixelWidth: Int = 2) {
        precondition(ramp.count >= 2 && pixelWidth >= 1)
        self.ramp = ramp
        self.pixelWidth = pixelWidth
    }

    /// The glyph for an intensity in [0, 1].
    public func glyph(forIntensity intensity: Float) -> Character {
        let level = Int((min(1, max(0, intensity)) * Float(ramp.count - 1)).rounded())
        return ramp[level]
    }

    /// 28 lines of art, each ending in a newline.
    public func render(_ tensor: DigitTensor) -> String {
        var text = ""
        for y in 0..<DigitTensor.side {
            for x in 0..<DigitTensor.side {
                let glyph = glyph(forIntensity: DigitTensor.intensity(ofNormalized: tensor[x, y]))
                text += String(repeating: glyph, count: pixelWidth)
            }
            text += "\n"
        }
        return text
    }

    /// A picture with grey levels 0-255, shrunk by area averaging to fit in
    /// `maxSide` x `maxSide` (aspect kept) and drawn with 255 as full ink.
    public func renderPreview(_ raster: Raster, maxSide: Int = DigitTensor.side) -> String {
        let scale = min(1, Double(maxSide) / Double(max(raster.width, raster.height)))
        let width = max(1, Int((Double(raster.width) * scale).rounded()))
        let height = max(1, Int((Double(raster.height) * scale).rounded()))
        let preview = AreaResampler.resize(raster, targetWidth: width, targetHeight: height)
        var text = ""
        for y in 0..<height {
            for x in 0..<width {
                text += String(repeating: glyph(forIntensity: Float(preview[x, y] / 255)), count: pixelWidth)
            }
            text += "\n"
        }
        return text
    }

    /// The normalized values themselves, 28 per line with 4 decimals, as one
    /// prints a tensor while debugging.
    public func renderValues(_ tensor: DigitTensor) -> String {
        var text = ""
        for y in 0..<DigitTensor.side {
            let row = (0..<DigitTensor.side).map { x in Self.fixed(tensor[x, y], decimals: 4, width: 7) }
            text += row.joined(separator: " ") + "\n"
        }
        return text
    }

    /// `value` with `decimals` digits after the point, right-aligned in `width` characters.
    static func fixed(_ value: Float, decimals: Int, width: Int) -> String {
        var scale: Float = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((abs(value) * scale).rounded())
        let whole = scaled / Int(scale), fraction = scaled % Int(scale)
        let digits = String(fraction)
        let sign = value < 0 && scaled != 0 ? "-" : ""
        let text = "\(sign)\(whole).\(String(repeating: "0", count: decimals - digits.count))\(digits)"
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
