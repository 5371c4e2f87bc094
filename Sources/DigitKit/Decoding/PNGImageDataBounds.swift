/// Checks, before anything is inflated or allocated, that a PNG's
/// compressed image data (its IDAT chunks together) can be the picture its
/// IHDR describes: deflate turns a byte into at most 1032 (zlib's own
/// bound), so too little data cannot fill a large picture however it
/// inflates, and data much longer than the picture's stored form (a few
/// bytes per 64 KiB block beyond it) holds something other than the
/// picture. Either way the file is corrupt, and refusing it here spares a
/// buffer sized by the header or the inflating of data that is no picture.
enum PNGImageDataBounds {
    /// Deflate's largest expansion: 258 bytes from 2 bits.
    static let maximumRatio = 1032

    /// Throws for a file whose IHDR (the first chunk, as PNGStructure has
    /// checked the layout) and `imageDataLength` (its IDAT chunks' lengths,
    /// summed by PNGStructure's walk) cannot belong together; says nothing
    /// about a header it cannot read or a picture over `maxPixels` (libpng
    /// names those).
    static func check(_ png: [UInt8], imageDataLength: Int, maxPixels: Int) throws(DigitError) {
        guard let header = Header(png), header.width * header.height <= Double(maxPixels) else { return }
        let compressed = Double(imageDataLength)
        let picture = "\(Int(header.width))x\(Int(header.height))"
        let smallest = header.interlaced ? header.width * header.height * header.bitsPerPixel / 8 : header.inflatedBytes(interlaced: false)
        if compressed * Double(maximumRatio) + 64 < smallest {
            throw DigitError(.invalidImage, "corrupt PNG: not enough image data: \(Int(compressed)) bytes cannot inflate to the \(Int(smallest)) bytes that the \(picture) picture needs")
        }
        // The most an encoder that never falls back to stored blocks makes of
        // incompressible rows: 9 bits a byte with deflate's fixed codes (as
        // stb_image_write and other small encoders do), plus block headers,
        // the zlib header and checksum, with room to spare.
        let largest = header.inflatedBytes(interlaced: header.interlaced)
        if compressed > largest + largest / 8 + largest / 1024 + 1024 {
            throw DigitError(.invalidImage, "corrupt PNG: too much image data: \(Int(compressed)) bytes, far more than the \(picture) picture holds")
        }
    }

    /// What IHDR says of the picture's size; counted in Double, which holds
    /// every product of 31-bit sides exactly enough for a bound.
    struct Header {
        let width: Double, height: Double, bitsPerPixel: Double, interlaced: Bool

        init?(_ png: [UInt8]) {
            guard png.count >= 29, png[12...15].elementsEqual("IHDR".utf8) else { return nil }
            func number(_ at: Int) -> Double {
                Double(Int(png[at]) << 24 | Int(png[at + 1]) << 16 | Int(png[at + 2]) << 8 | Int(png[at + 3]))
            }
            let samples: Double
            switch png[25] {
            case 0, 3: samples = 1
            case 2: samples = 3
            case 4: samples = 2
            case 6: samples = 4
            default: return nil
            }
            guard [1, 2, 4, 8, 16].contains(png[24]), number(16) > 0, number(20) > 0 else { return nil }
            width = number(16)
            height = number(20)
            bitsPerPixel = samples * Double(png[24])
            interlaced = png[28] == 1
        }

        /// The inflated image data: a filter byte and the packed pixels per
        /// row. Adam7 has up to 7 passes, each row of which is rounded up
        /// to whole bytes and filtered: at most 15 more bytes per picture row.
        func inflatedBytes(interlaced: Bool) -> Double {
            let rowBytes = (width * bitsPerPixel / 8).rounded(.up)
            return height * (rowBytes + 1) + (interlaced ? height * 15 : 0)
        }
    }
}
