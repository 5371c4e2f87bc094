/// The stream header of a YUV4MPEG2 ("y4m") video: what
/// `ffmpeg -f yuv4mpegpipe` writes, a line of space-separated tokens
/// (`YUV4MPEG2 W640 H480 F30:1 Ip A1:1 Cmono`), then frames, each a
/// `FRAME` line (which may carry parameters of its own) and the planes.
///
/// The tokens are parsed one by one, in any order, never by assuming the
/// header's length. Only 8-bit streams are read: `digits stream` looks at the
/// Y (luma) plane and skips the chroma planes, whose size the `C` tag gives.
public struct Y4MHeader: Equatable, Sendable {
    /// How the chroma planes that follow each Y plane are laid out.
    public enum Chroma: String, Sendable, CaseIterable {
        /// No chroma planes: the stream is grey (`Cmono`, ffmpeg's `-pix_fmt gray`).
        case mono
        /// 4:2:0, in its four siting variants (`C420jpeg`, the default, `C420paldv`,
        /// `C420mpeg2`, `C420`): two planes, each half as wide and half as tall as the
        /// Y plane, rounded up. The siting does not matter here, as chroma is skipped.
        case c420jpeg = "420jpeg", c420paldv = "420paldv", c420mpeg2 = "420mpeg2", c420 = "420"
        /// 4:2:2: two planes, each half as wide as the Y plane and as tall.
        case c422 = "422"
        /// 4:4:4: two planes the size of the Y plane.
        case c444 = "444"

        /// Bytes of chroma after a `width` x `height` Y plane.
        func planeBytes(width: Int, height: Int) -> Int {
            switch self {
            case .mono: return 0
            case .c420jpeg, .c420paldv, .c420mpeg2, .c420: return 2 * ((width + 1) / 2) * ((height + 1) / 2)
            case .c422: return 2 * ((width + 1) / 2) * height
            case .c444: return 2 * width * height
            }
        }
    }

    /// The stream's first bytes.
    public static let signature = Array("YUV4MPEG2".utf8)
    /// The longest header line accepted; real ones are under 100 bytes.
    static let maxLineLength = 4096

    /// Frame width in pixels (the `W` token).
    public let width: Int
    /// Frame height in pixels (the `H` token).
    public let height: Int
    /// The chroma layout (the `C` token); 4:2:0 (`C420jpeg`) when the header has none.
    public let chroma: Chroma
    /// The frame rate the header states (`F30000:1001`), if it states one.
    public let framesPerSecond: Double?

    /// Bytes of each frame after its FRAME line: the Y plane and the chroma planes.
    public var frameBytes: Int { width * height + chroma.planeBytes(width: width, height: height) }

    /// Parses the header `line` (without its newline). Frames larger than
    /// `maxPixels` are refused here, before any frame is allocated.
    public init(line: some Collection<UInt8>, maxPixels: Int) throws(DigitError) {
        guard line.starts(with: Self.signature) else {
            throw DigitError(.invalidImage, "not a YUV4MPEG2 stream")
        }
        var width: Int?, height: Int?, chroma = Chroma.c420jpeg, rate: Double?
        for token in line.dropFirst(Self.signature.count).split(separator: UInt8(ascii: " ")) {
            let value = String(decoding: token.dropFirst(), as: UTF8.self)
            switch token.first {
            case UInt8(ascii: "W"): width = try Self.dimension(value, "width", maxPixels: maxPixels)
            case UInt8(ascii: "H"): height = try Self.dimension(value, "height", maxPixels: maxPixels)
            case UInt8(ascii: "C"): chroma = try Self.chroma(value)
            case UInt8(ascii: "F"): rate = Self.rate(value)
            default: continue  // I (interlacing), A (aspect), X (comments) do not matter here
            }
        }
        guard let width, let height else {
            throw DigitError(.invalidImage, "corrupt YUV4MPEG2 header: no \(width == nil ? "W (width)" : "H (height)") token")
        }
        guard width <= maxPixels / height else {
            throw DigitError(.imageTooLarge, "a \(width)x\(height) frame is larger than the limit of \(maxPixels) pixels")
        }
        self.width = width
        self.height = height
        self.chroma = chroma
        self.framesPerSecond = rate
    }

    /// A positive decimal size; one that alone is over the pixel ceiling
    /// (or too long for an Int) is refused as too large, a product of two
    /// that is over it by the caller.
    private static func dimension(_ text: String, _ name: String, maxPixels: Int) throws(DigitError) -> Int {
        guard !text.isEmpty, text.allSatisfy(\.isASCIIDigit), Int(text) != 0 else {
            throw DigitError(.invalidImage, "corrupt YUV4MPEG2 header: \(name) '\(text.prefix(20))' is not a positive number")
        }
        guard let value = Int(text), value <= maxPixels else {
            let shown = text.drop { $0 == "0" }
            throw DigitError(.imageTooLarge, "frame \(name) \(shown.prefix(20))\(shown.count > 20 ? "..." : "") is over the limit of \(maxPixels) pixels")
        }
        return value
    }

    private static func chroma(_ text: String) throws(DigitError) -> Chroma {
        if let chroma = Chroma(rawValue: text) { return chroma }
        let supported = "digits reads 8-bit Cmono, C420jpeg, C420paldv, C420mpeg2, C420, C422 and C444"
        // High bit depths are spelled with a p or a number after the subsampling (C420p10, Cmono16).
        if text.hasPrefix("mono") || text.hasPrefix("420p") || text.hasPrefix("422p") || text.hasPrefix("444p") {
            throw DigitError(.invalidImage, "unsupported YUV4MPEG2 chroma C\(text.prefix(20)) (more than 8 bits a sample); \(supported) (ffmpeg: -pix_fmt gray)")
        }
        throw DigitError(.invalidImage, "unsupported YUV4MPEG2 chroma C\(text.prefix(20)); \(supported) (ffmpeg: -pix_fmt gray)")
    }

    /// `F30:1` or `F30000:1001`; nil when malformed, as the rate is only informative.
    private static func rate(_ text: String) -> Double? {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let numerator = Int(parts[0]), let denominator = Int(parts[1]),
              numerator > 0, denominator > 0 else { return nil }
        return Double(numerator) / Double(denominator)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
