/// A libjpeg-turbo scaling factor, and the choice of one for a size hint.
///
/// libjpeg-turbo can decode a JPEG at 1/2, 1/4 or 1/8 of its size in the
/// DCT domain: it runs a smaller inverse DCT on each 8x8 block (4x4, 2x2,
/// or just the DC coefficient) instead of decoding every pixel and
/// averaging them away afterwards, so a large photo costs a fraction of
/// the time and memory.
struct JPEGScale: Equatable, Sendable {
    let numerator: Int
    let denominator: Int

    static let full = JPEGScale(numerator: 1, denominator: 1)
    /// The reductions worth asking for; their inverse DCTs are the cheap ones.
    static let reductions: Set<Int> = [2, 4, 8]

    /// `dimension` at this scale, rounded up, as TurboJPEG's TJSCALED macro computes it.
    func scaled(_ dimension: Int) -> Int {
        (dimension * numerator + denominator - 1) / denominator
    }

    /// The strongest reduction among `available` (those of 1/2, 1/4 and 1/8
    /// it holds) that keeps the longer side at least `maxSide`; full size
    /// when the picture is not larger than `maxSide` or no reduction keeps it.
    /// A 4000x3000 photo with maxSide 512 decodes at 1/4, 1000x750.
    static func choose(width: Int, height: Int, maxSide: Int, available: [JPEGScale]) -> JPEGScale {
        let longer = max(width, height)
        guard longer > maxSide else { return .full }
        let candidates = available.filter { $0.numerator == 1 && reductions.contains($0.denominator) && $0.scaled(longer) >= maxSide }
        return candidates.max { $0.denominator < $1.denominator } ?? .full
    }

    /// The reductions libjpeg-turbo offers (tjGetScalingFactors), read once.
    static let available: [JPEGScale] = TurboJPEGDecompressor.scalingFactors().map {
        JPEGScale(numerator: $0.numerator, denominator: $0.denominator)
    }
}
