/// Undoes PNG's per-row filters (PNG specification, section 9: None, Sub,
/// Up, Average, Paeth), for the PNG fast path. Each row's bytes are
/// predicted from the byte `bytesPerPixel` to the left (`a`), the byte above
/// (`b`) and the byte above that left one (`c`); the stored byte is the
/// difference modulo 256.
enum PNGScanlineFilter {
    /// Restores `count` bytes of `row` in place from their filter `type`
    /// and the already restored row above (`previous`, all zeros for the
    /// first row). False for a filter type over 4, which PNG does not define.
    /// `bytesPerPixel` is 1 to 4 (8-bit grey to RGBA).
    static func unfilter(_ type: UInt8, row: UnsafeMutablePointer<UInt8>, previous: UnsafePointer<UInt8>,
                         count: Int, bytesPerPixel: Int) -> Bool {
        // A constant pixel size in each call, so the loops over a pixel's bytes unroll.
        switch bytesPerPixel {
        case 1: unfilter(type, row, previous, count, 1)
        case 2: unfilter(type, row, previous, count, 2)
        case 3: unfilter(type, row, previous, count, 3)
        case 4: unfilter(type, row, previous, count, 4)
        default: preconditionFailure("\(bytesPerPixel) bytes a pixel")
        }
    }

    /// The bytes of the pixel to the left, one variable each: Sub, Average
    /// and Paeth restore a byte from the one `bpp` before it, and keeping
    /// that in a register spares each byte a wait on the store just made
    /// (read back from the row) or on a vector lane written a step before
    /// (a SIMD4 kept on the stack: a third of a photo's unfiltering).
    private struct Pixel {
        var b0: UInt8 = 0, b1: UInt8 = 0, b2: UInt8 = 0, b3: UInt8 = 0

        /// Byte `c` (0-3): a constant after the loops over a pixel unroll,
        /// so the switch goes.
        @inline(__always) subscript(c: Int) -> UInt8 {
            get {
                switch c {
                case 0: b0
                case 1: b1
                case 2: b2
                default: b3
                }
            }
            set {
                switch c {
                case 0: b0 = newValue
                case 1: b1 = newValue
                case 2: b2 = newValue
                default: b3 = newValue
                }
            }
        }
    }

    @inline(__always)
    private static func unfilter(_ type: UInt8, _ row: UnsafeMutablePointer<UInt8>, _ previous: UnsafePointer<UInt8>,
                                 _ count: Int, _ bpp: Int) -> Bool {
        let lead = min(bpp, count)  // the first pixel's bytes: nothing to their left
        switch type {
        case 0:
            break
        case 1:
            var left = Pixel()
            var i = 0
            while i &+ bpp <= count {
                for c in 0..<bpp { left[c] = left[c] &+ row[i &+ c] }
                for c in 0..<bpp { row[i &+ c] = left[c] }
                i &+= bpp
            }
        case 2:
            // Sixteen bytes a step: the compiler cannot tell that the rows do not overlap.
            var i = 0
            while i &+ 16 <= count {
                let sum = UnsafeRawPointer(row + i).loadUnaligned(as: SIMD16<UInt8>.self)
                    &+ UnsafeRawPointer(previous + i).loadUnaligned(as: SIMD16<UInt8>.self)
                UnsafeMutableRawPointer(row + i).storeBytes(of: sum, as: SIMD16<UInt8>.self)
                i &+= 16
            }
            while i < count { row[i] = row[i] &+ previous[i]; i &+= 1 }
        case 3:
            var left = Pixel()
            for c in 0..<lead {
                left[c] = row[c] &+ previous[c] >> 1
                row[c] = left[c]
            }
            var i = lead
            while i &+ bpp <= count {
                for c in 0..<bpp {
                    left[c] = row[i &+ c] &+ UInt8(truncatingIfNeeded: (UInt16(left[c]) &+ UInt16(previous[i &+ c])) >> 1)
                }
                for c in 0..<bpp { row[i &+ c] = left[c] }
                i &+= bpp
            }
        case 4:
            // With nothing to the left (a = c = 0) Paeth predicts b.
            var left = Pixel()
            for c in 0..<lead {
                left[c] = row[c] &+ previous[c]
                row[c] = left[c]
            }
            var i = lead
            while i &+ bpp <= count {
                for c in 0..<bpp { left[c] = row[i &+ c] &+ paeth(left[c], previous[i &+ c], previous[i &+ c &- bpp]) }
                for c in 0..<bpp { row[i &+ c] = left[c] }
                i &+= bpp
            }
        default:
            return false
        }
        return true
    }
    /// Of `a`, `b` and `c`, the one nearest a + b - c, ties going to a, then
    /// b. Written as selections without branches: which one wins changes
    /// from byte to byte in a photo, and mispredicted branches were most of
    /// this filter's time.
    @inline(__always)
    static func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let a32 = Int32(a), b32 = Int32(b), c32 = Int32(c)
        let pa = magnitude(b32 &- c32), pb = magnitude(a32 &- c32), pc = magnitude(a32 &+ b32 &- c32 &- c32)
        let bOrC = pb <= pc ? b32 : c32
        let pbOrC = pb <= pc ? pb : pc
        return UInt8(truncatingIfNeeded: pa <= pbOrC ? a32 : bOrC)
    }

    @inline(__always)
    private static func magnitude(_ x: Int32) -> Int32 {
        let sign = x >> 31
        return (x ^ sign) &- sign
    }
}
