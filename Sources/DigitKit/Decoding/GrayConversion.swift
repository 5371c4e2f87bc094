/// Reduces decoded 8-bit samples (G, GA, RGB or RGBA) to one grey byte per
/// pixel, alpha over white unless it holds the ink (AlphaInk). Kept apart
/// from the decoder so the arithmetic is easy to check.
enum GrayConversion {
    /// Pillow's ITU-R 601 weights in 16-bit fixed point (they sum to 65536),
    /// for `luma` and its table.
    static let weights: (red: UInt32, green: UInt32, blue: UInt32) = (19595, 38470, 7471)

    /// Luma with ITU-R 601 weights in 16-bit fixed point, rounded; the same
    /// integers Pillow's `convert("L")` uses, so the weights sum to 65536 and
    /// grey input passes through unchanged.
    @inline(__always)
    static func luma(red: UInt8, green: UInt8, blue: UInt8) -> UInt8 {
        // At most 255 * 65536 + 0x8000 < 2^32: the wrapping operators never
        // wrap, and spare the hot loop its overflow checks.
        let r: UInt32 = UInt32(red) &* weights.red
        let g: UInt32 = UInt32(green) &* weights.green
        let b: UInt32 = UInt32(blue) &* weights.blue
        return UInt8(truncatingIfNeeded: (r &+ g &+ b &+ 0x8000) >> 16)
    }

    /// `value` at opacity `alpha` over a white background, rounded.
    @inline(__always)
    static func overWhite(_ value: UInt8, alpha: UInt8) -> UInt8 {
        // At most 255 * 255 + 127 before the division, which brings it back to 0...255.
        let a = UInt32(alpha)
        return UInt8(truncatingIfNeeded: (UInt32(value) &* a &+ 255 &* (255 &- a) &+ 127) / 255)
    }

    /// One grey byte per pixel from interleaved samples of `channels` (1-4) channels.
    ///
    /// Each layout has its own loop, so that the channel count and the alpha
    /// test are not decided again for every pixel (docs/decisions.md, "Plain
    /// loops"). Sample `p + c` of
    /// pixel `i` (p = i * channels) stays below `count * channels <=
    /// samples.count`, so the index arithmetic cannot wrap and goes unchecked.
    static func gray(samples: [UInt8], channels: Int, hasAlpha: Bool) -> [UInt8] {
        precondition((1...4).contains(channels) && hasAlpha == (channels == 2 || channels == 4))
        let count = samples.count / channels
        if channels == 1 || count == 0 { return samples }
        return [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            samples.withUnsafeBufferPointer { s in
                var alphaInk = AlphaInk()
                if hasAlpha { alphaInk.observe(s.baseAddress!, channels: channels, count: count) }
                if alphaInk.found {
                    AlphaInk.write(s.baseAddress!, channels: channels, count: count, into: out.baseAddress!)
                } else {
                    convert(s.baseAddress!, channels: channels, count: count, into: out.baseAddress!)
                }
            }
            initialized = count
        }
    }

    /// `count` grey bytes into `out` from `count * channels` interleaved
    /// samples at `s` (channels 1-4; 2 and 4 carry alpha): the loops of
    /// `gray(samples:)`, also run row by row by PNGFastPath.
    @inline(__always)
    static func convert(_ s: UnsafePointer<UInt8>, channels: Int, count: Int, into out: UnsafeMutablePointer<UInt8>) {
        switch channels {
        case 1:
            out.update(from: s, count: count)
        case 2:
            for i in 0..<count {
                let p = i &* 2
                out[i] = overWhite(s[p], alpha: s[p &+ 1])
            }
        case 3:
            lumaTerms.withUnsafeBufferPointer { terms in
                let t = terms.baseAddress!
                for i in 0..<count {
                    let p = i &* 3
                    out[i] = luma(s[p], s[p &+ 1], s[p &+ 2], terms: t)
                }
            }
        default:
            lumaTerms.withUnsafeBufferPointer { terms in
                let t = terms.baseAddress!
                for i in 0..<count {
                    let p = i &* 4
                    out[i] = overWhite(luma(s[p], s[p &+ 1], s[p &+ 2], terms: t), alpha: s[p &+ 3])
                }
            }
        }
    }

    /// `luma(red:green:blue:)` from `lumaTerms`: three loads from a table
    /// that stays in the first-level cache instead of three multiplications,
    /// which were most of a photo's conversion (a multiplier takes one a
    /// cycle; the loads go two or three at a time).
    @inline(__always)
    private static func luma(_ red: UInt8, _ green: UInt8, _ blue: UInt8, terms: UnsafePointer<UInt32>) -> UInt8 {
        UInt8(truncatingIfNeeded: (terms[Int(red)] &+ terms[256 &+ Int(green)] &+ terms[512 &+ Int(blue)]) >> 16)
    }

    /// Each channel's term of `luma(red:green:blue:)` for every level:
    /// red's (with the rounding constant), then green's, then blue's.
    private static let lumaTerms: [UInt32] = (0..<768).map { entry in
        let level = UInt32(entry % 256)
        switch entry / 256 {
        case 0: return level * weights.red + 0x8000
        case 1: return level * weights.green
        default: return level * weights.blue
        }
    }

    /// One grey byte per pixel from 16-bit samples as libpng's linear
    /// formats deliver them (colour premultiplied by alpha), `width` pixels
    /// a row: each row is brought to 8 bits (`eightBit`) in a buffer of
    /// one row and reduced to grey, so that no 8-bit copy of the whole
    /// picture is made beside the 16-bit one.
    static func gray(premultiplied16 samples: [UInt16], width: Int, channels: Int, hasAlpha: Bool) -> [UInt8] {
        precondition((1...4).contains(channels) && hasAlpha == (channels == 2 || channels == 4))
        let rowSamples = width * channels
        let height = rowSamples == 0 ? 0 : samples.count / rowSamples
        var row = [UInt8](repeating: 0, count: rowSamples)
        return [UInt8](unsafeUninitializedCapacity: width * height) { out, initialized in
            samples.withUnsafeBufferPointer { all in
                row.withUnsafeMutableBufferPointer { row in
                    var alphaInk = AlphaInk()
                    for y in 0..<height {
                        let start = y * rowSamples
                        eightBit(premultiplied16: UnsafeBufferPointer(rebasing: all[start..<(start + rowSamples)]),
                                 channels: channels, hasAlpha: hasAlpha, into: row)
                        convert(row.baseAddress!, channels: channels, count: width, into: out.baseAddress! + y * width)
                        if hasAlpha { alphaInk.observe(row.baseAddress!, channels: channels, count: width) }
                    }
                    guard alphaInk.found else { return }
                    for y in 0..<height {
                        let start = y * rowSamples
                        eightBit(premultiplied16: UnsafeBufferPointer(rebasing: all[start..<(start + rowSamples)]),
                                 channels: channels, hasAlpha: hasAlpha, into: row)
                        AlphaInk.write(row.baseAddress!, channels: channels, count: width, into: out.baseAddress! + y * width)
                    }
                }
            }
            initialized = width * height
        }
    }

    /// 8-bit samples from 16-bit samples as libpng's linear formats deliver
    /// them (colour premultiplied by alpha): alpha is divided out, and every
    /// channel keeps its high byte (v >> 8), as Pillow reduces 16-bit colour,
    /// so that `convert` then treats both depths alike.
    static func eightBit(premultiplied16 samples: UnsafeBufferPointer<UInt16>, channels: Int, hasAlpha: Bool,
                         into out: UnsafeMutableBufferPointer<UInt8>) {
        guard hasAlpha else {
            for i in 0..<samples.count { out[i] = UInt8(samples[i] >> 8) }
            return
        }
        for p in stride(from: 0, to: samples.count, by: channels) {
            let alpha = UInt32(samples[p + channels - 1])
            for c in 0..<(channels - 1) {
                out[p + c] = 0
                guard alpha > 0 else { continue }
                let straight = min(65535, (UInt32(samples[p + c]) * 65535 + alpha / 2) / alpha)
                out[p + c] = UInt8(straight >> 8)
            }
            out[p + channels - 1] = UInt8(alpha >> 8)
        }
    }
}
