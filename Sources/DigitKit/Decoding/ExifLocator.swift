/// Finds the EXIF block (the TIFF structure) that a picture's container
/// carries: in a JPEG the first APP1 segment that starts "Exif\0\0", in a
/// PNG the first eXIf chunk. Both walks are bounded by the data and
/// advance at every step; a malformed container means no EXIF (nil).
enum ExifLocator {
    static let jpegPrefix: [UInt8] = Array("Exif".utf8) + [0, 0]

    /// The TIFF block of `bytes` in `format`, or nil.
    static func tiffBlock(in bytes: [UInt8], format: ImageFormat) -> ArraySlice<UInt8>? {
        switch format {
        case .jpeg: return jpegTIFFBlock(bytes)
        case .png: return pngTIFFBlock(bytes)
        case .pnm: return nil
        }
    }

    /// The first APP1 "Exif\0\0" segment before the image data, without its prefix.
    static func jpegTIFFBlock(_ jpeg: [UInt8]) -> ArraySlice<UInt8>? {
        guard let segments = try? JPEGStructure.headerSegments(jpeg) else { return nil }
        for segment in segments where segment.marker == JPEGMarker.app1 {
            let payload = jpeg[segment.payload]
            if payload.starts(with: jpegPrefix) { return payload.dropFirst(jpegPrefix.count) }
        }
        return nil
    }

    /// The first eXIf chunk's data. Some writers put JPEG's "Exif\0\0" in
    /// front of the TIFF header there too; it is skipped.
    static func pngTIFFBlock(_ png: [UInt8]) -> ArraySlice<UInt8>? {
        for chunk in PNGChunks(png) where chunk.type == .eXIf {
            let data = png[chunk.data]
            return data.starts(with: jpegPrefix) ? data.dropFirst(jpegPrefix.count) : data
        }
        return nil
    }
}
