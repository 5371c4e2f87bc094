/// Drawing-app exports whose strokes are in the alpha channel: white (or
/// any light, single-colour) strokes on a fully transparent canvas, which
/// composited over white vanish. Where the colour of every visible pixel is
/// the same light colour and the alpha holds a shape (some pixels near
/// transparent, some at least half opaque: a brush set below full opacity
/// still draws), the alpha is the ink: the grey picture is 255 - alpha, dark
/// strokes on white.
///
/// Flat dark colours are left to the compositing: over white they already
/// give dark strokes (black ones exactly 255 - alpha), as Pillow shows them.
/// Observed one row at a time, in one pass, by both PNG paths, which thus
/// agree pixel for pixel.
struct AlphaInk {
    /// Pixels at least this opaque are visible: their colour must be the flat one.
    static let visibleAlpha: UInt8 = 32
    /// The flat colour's lumas may spread this much (edges smoothed by the
    /// app, alpha divided out with rounding).
    static let tolerance: UInt8 = 16
    /// The flat colour is at least this light, or compositing stays.
    static let lightFrom: UInt8 = 128
    /// A shape needs pixels this opaque or more (half), and some less than `visibleAlpha`.
    static let opaque: UInt8 = 128

    private var minAlpha: UInt8 = 255, maxAlpha: UInt8 = 0
    private var minLuma: UInt8 = 255, maxLuma: UInt8 = 0

    /// Whether the pixels observed are light flat colour with a shape in their alpha.
    var found: Bool {
        minAlpha < Self.visibleAlpha && maxAlpha >= Self.opaque && colourIsFlatAndLight
    }

    /// Whether every visible pixel so far has one light colour (true before any).
    private var colourIsFlatAndLight: Bool {
        maxLuma < minLuma || (maxLuma &- minLuma <= Self.tolerance && minLuma >= Self.lightFrom)
    }

    /// Takes in `count` pixels of interleaved 8-bit samples at `s`, grey +
    /// alpha (`channels` 2) or RGBA (4). Once the colour is seen not to be
    /// flat and light (a photo: within its first pixels), the rest costs nothing.
    @inline(__always)
    mutating func observe(_ s: UnsafePointer<UInt8>, channels: Int, count: Int) {
        let last = channels &- 1
        var start = 0
        while start < count && colourIsFlatAndLight {
            let end = min(count, start &+ Self.stretch)
            for i in start..<end {
                let p = i &* channels
                let alpha = s[p &+ last]
                minAlpha = min(minAlpha, alpha)
                maxAlpha = max(maxAlpha, alpha)
                guard alpha >= Self.visibleAlpha else { continue }
                let luma = channels == 2 ? s[p] : GrayConversion.luma(red: s[p], green: s[p &+ 1], blue: s[p &+ 2])
                minLuma = min(minLuma, luma)
                maxLuma = max(maxLuma, luma)
            }
            start = end
        }
    }

    /// Pixels taken in between two looks at whether the colour is still flat and light.
    private static let stretch = 1024

    /// `count` grey bytes into `out`, 255 - alpha, from `count * channels` samples at `s`.
    @inline(__always)
    static func write(_ s: UnsafePointer<UInt8>, channels: Int, count: Int, into out: UnsafeMutablePointer<UInt8>) {
        let last = channels &- 1
        for i in 0..<count { out[i] = 255 &- s[i &* channels &+ last] }
    }
}
