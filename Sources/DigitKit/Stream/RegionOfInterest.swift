/// The part of each video frame where the digit is looked for, like the
/// square overlay of a camera app: the digit is held up to it, and what
/// lies around it (the desk, the hand, the rest of the sheet) is ignored.
public enum RegionOfInterest: Equatable, Sendable, CustomStringConvertible {
    /// The centred square whose side is `fraction` (0 < fraction <= 1) of the
    /// frame's shorter side.
    case centre(fraction: Double)
    /// A box in pixels: its top-left corner, width and height.
    case box(x: Int, y: Int, width: Int, height: Int)

    /// The default: the centre square half as wide as the shorter side.
    public static let `default` = RegionOfInterest.centre(fraction: 0.5)

    /// Parses `center:F` (or `centre:F`) or `X,Y,W,H`.
    public init(parsing text: String) throws(DigitError) {
        for prefix in ["center:", "centre:"] where text.hasPrefix(prefix) {
            guard let fraction = Double(text.dropFirst(prefix.count)), fraction > 0, fraction <= 1 else {
                throw DigitError(.invalidArgument, "--roi \(text): the fraction after '\(prefix)' must be a number above 0 and at most 1")
            }
            self = .centre(fraction: fraction)
            return
        }
        let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
        guard numbers.count == 4, let x = numbers[0], let y = numbers[1], let width = numbers[2], let height = numbers[3],
              x >= 0, y >= 0, width > 0, height > 0 else {
            throw DigitError(.invalidArgument, "--roi \(text): expected X,Y,W,H (whole pixels, W and H above 0) or center:F")
        }
        self = .box(x: x, y: y, width: width, height: height)
    }

    /// The region as `--roi` takes it: `center:F` or `X,Y,W,H`.
    public var description: String {
        switch self {
        case .centre(let fraction): return "center:\(fraction)"
        case .box(let x, let y, let width, let height): return "\(x),\(y),\(width),\(height)"
        }
    }

    /// The box in a `width` x `height` frame; throws when it does not fit.
    public func rectangle(inFrameWidth width: Int, height: Int) throws(DigitError) -> PixelRectangle {
        switch self {
        case .centre(let fraction):
            let side = max(1, Int((Double(min(width, height)) * fraction).rounded(.down)))
            return PixelRectangle(x: (width - side) / 2, y: (height - side) / 2, width: side, height: side)
        case .box(let x, let y, let boxWidth, let boxHeight):
            let (right, wide) = x.addingReportingOverflow(boxWidth)
            let (bottom, tall) = y.addingReportingOverflow(boxHeight)
            guard !wide, !tall, right <= width, bottom <= height else {
                throw DigitError(.invalidArgument, "--roi \(description) does not fit the \(width)x\(height) frame")
            }
            return PixelRectangle(x: x, y: y, width: boxWidth, height: boxHeight)
        }
    }
}

/// A rectangle of whole pixels inside a picture.
public struct PixelRectangle: Equatable, Sendable {
    /// Column of the left edge, in pixels from the left of the picture (0-based).
    public let x: Int
    /// Row of the top edge, in pixels from the top of the picture (0-based).
    public let y: Int
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int

    /// The rectangle with its top-left corner at (`x`, `y`); nothing is checked,
    /// so the caller makes sure it lies inside the picture.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

extension GrayImage {
    /// The pixels inside `rectangle`, which must lie within the image.
    func cropped(to rectangle: PixelRectangle) -> GrayImage {
        if rectangle == PixelRectangle(x: 0, y: 0, width: width, height: height) { return self }
        var out = [UInt8]()
        out.reserveCapacity(rectangle.width * rectangle.height)
        for row in rectangle.y..<(rectangle.y + rectangle.height) {
            let start = row * width + rectangle.x
            out.append(contentsOf: pixels[start..<(start + rectangle.width)])
        }
        return try! GrayImage(width: rectangle.width, height: rectangle.height, pixels: out)
    }
}
