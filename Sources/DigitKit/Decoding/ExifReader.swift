/// Reads the Orientation tag from an EXIF block: the TIFF structure that a
/// JPEG's APP1 "Exif" segment or a PNG's eXIf chunk holds. Written for
/// hostile input: it never traps and does a bounded amount of work, and
/// anything malformed means "no orientation" (identity), never an error,
/// since a picture with broken metadata is still a picture.
///
/// The structure: an 8-byte header ("II" little-endian or "MM" big-endian,
/// the number 42, the offset of IFD0), then IFD0: a 2-byte entry count and
/// 12-byte entries (tag, type, count, value or offset). Orientation lives
/// in IFD0, so nothing else is read: no link to a next IFD or sub-IFD is
/// followed, which makes loops between IFDs impossible by construction.
///
/// Bounds: every offset is checked against the block before it is read
/// (offsets are at most 2^32 - 1 and blocks shorter than 2^31 bytes, so the
/// sums cannot overflow Int); an IFD that claims more entries than the
/// block can hold is malformed as a whole; at most 65535 entries are looked at.
enum ExifReader {
    static let orientationTag = 0x0112
    /// TIFF field type 3: an unsigned 16-bit integer.
    static let shortType = 3

    /// The orientation `tiff` records, or identity.
    static func orientation(tiff: ArraySlice<UInt8>) -> ExifOrientation {
        guard let value = orientationValue(TIFFBytes(tiff)) else { return .identity }
        return ExifOrientation(tagValue: value)
    }

    /// The raw value of IFD0's Orientation entry, or nil.
    private static func orientationValue(_ tiff: TIFFBytes?) -> Int? {
        guard let tiff,
              let firstIFD = tiff.uint32(at: 4), firstIFD >= 8,
              let entryCount = tiff.uint16(at: firstIFD)
        else { return nil }
        let entriesStart = firstIFD + 2
        guard entryCount <= (tiff.count - entriesStart) / 12 else { return nil }
        for index in 0..<entryCount {
            let entry = entriesStart + 12 * index
            guard tiff.uint16(at: entry) == orientationTag else { continue }
            // The value of a single SHORT sits in the first 2 bytes of the 4-byte value field.
            guard tiff.uint16(at: entry + 2) == shortType, tiff.uint32(at: entry + 4) == 1 else { return nil }
            return tiff.uint16(at: entry + 8)
        }
        return nil
    }
}
