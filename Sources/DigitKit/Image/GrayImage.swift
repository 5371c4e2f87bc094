/// An 8-bit greyscale image, row-major, 0 = black and 255 = white, as the
/// PNG decoder produces it (alpha already composited over white).
public struct GrayImage: Equatable, Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height` bytes, top row first.
    public let pixels: [UInt8]

    /// Wraps `pixels`; fails if the count is not `width * height` or a side is not positive.
    public init(width: Int, height: Int, pixels: [UInt8]) throws {
        guard width > 0, height > 0, pixels.count == width * height else {
            throw DigitError(.invalidArgument, "a \(width)x\(height) image needs \(max(0, width) * max(0, height)) pixels, got \(pixels.count)")
        }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The grey level (0-255) at column `x`, row `y` (0-based, from the top
    /// left); both must lie within the image.
    public subscript(x: Int, y: Int) -> UInt8 {
        pixels[y * width + x]
    }
}
