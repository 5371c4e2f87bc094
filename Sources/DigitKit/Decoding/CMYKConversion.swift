/// Grey from the samples of a four-component (CMYK or YCCK) JPEG, with the
/// arithmetic Pillow uses, so that `Image.open(p).convert("L")` and digits
/// see the same picture.
///
/// Such JPEGs come from Adobe software, which stores CMYK inverted (0 is
/// full ink). libjpeg hands the samples over as stored (converting YCCK to
/// that CMYK first). Pillow reads every four-component JPEG that way
/// ("CMYK;I": it inverts them back to c = 255 - stored), converts CMYK to
/// RGB as r = (255 - k) - (255 - k) * c / 255, with its MULDIV255 rounding
/// of the product, and RGB to L with its luma weights. With the stored
/// samples C, K that is r = K - MULDIV255(255 - C, K).
enum CMYKConversion {
    /// Pillow's MULDIV255(a, b): a * b / 255, rounded, for a, b in 0...255.
    @inline(__always)
    static func mulDiv255(_ a: UInt32, _ b: UInt32) -> UInt32 {
        let t = a * b + 128  // at most 255 * 255 + 128: no overflow in UInt32
        return ((t >> 8) + t) >> 8
    }

    /// One channel of Pillow's RGB from a stored (inverted) colour sample and
    /// the stored black sample; never negative, since the product is at most `black`.
    @inline(__always)
    static func rgbChannel(stored color: UInt8, storedBlack black: UInt8) -> UInt8 {
        let k = UInt32(black)
        return UInt8(truncatingIfNeeded: k - mulDiv255(255 - UInt32(color), k))
    }

    /// One grey byte per pixel from interleaved stored C, M, Y, K samples.
    static func gray(storedCMYK samples: [UInt8]) -> [UInt8] {
        let count = samples.count / 4
        return [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            samples.withUnsafeBufferPointer { s in
                for i in 0..<count {
                    let p = i * 4
                    let black = s[p + 3]
                    out[i] = GrayConversion.luma(red: rgbChannel(stored: s[p], storedBlack: black),
                                                 green: rgbChannel(stored: s[p + 1], storedBlack: black),
                                                 blue: rgbChannel(stored: s[p + 2], storedBlack: black))
                }
            }
            initialized = count
        }
    }
}
