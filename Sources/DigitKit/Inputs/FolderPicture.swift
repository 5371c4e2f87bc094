/// Which files `--recursive` takes from a folder: every file that is a
/// picture, by its content in a format digits reads (PNG, JPEG, PNM) or
/// recognizes and refuses with a conversion command (GIF, TIFF, BMP, WebP,
/// HEIC, AVIF, PDF, SVG, ...), or by its name (an image extension, so that
/// an empty or broken `scan.jpg` is reported, not lost). A taken file that
/// digits cannot read fails as it would by name. Files that are none of
/// these (notes, a .DS_Store) are not pictures, and are left out.
enum FolderPicture {
    /// How much of a file is looked at: enough for UnsupportedFormat to
    /// find an SVG element or an ISO media box's brands.
    static let headLength = UnsupportedFormat.svgSearchLength

    /// Extensions of picture files, lower case.
    static let extensions: Set<String> = [
        "png", "jpg", "jpeg", "jpe", "jfif", "pbm", "pgm", "ppm", "pnm", "pam", "gif", "webp", "tif", "tiff",
        "bmp", "dib", "heic", "heif", "avif", "jxl", "jp2", "j2k", "svg",
    ]

    /// Whether the file at `path`, starting with `head` (nil when it cannot
    /// be read: taken, so that its error is reported), is taken.
    static func isTaken(_ path: InputPath, head: [UInt8]?) -> Bool {
        guard let head else { return true }
        return ImageFormat.detect(head.prefix(ImageFormat.signatureLength)) != nil
            || ImageFormat.cutOffSignature(head) != nil
            || UnsupportedFormat.identify(head) != nil
            || hasPictureExtension(path)
    }

    /// Whether the name ends in ".png", ".JPG", ... (ASCII, any case).
    static func hasPictureExtension(_ path: InputPath) -> Bool {
        let name = path.bytes.split(separator: UInt8(ascii: "/")).last ?? []
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > name.startIndex else { return false }
        let suffix = name[(dot + 1)...]
        guard suffix.count <= 5, suffix.allSatisfy({ $0 < 0x80 }) else { return false }
        return extensions.contains(String(decoding: suffix, as: UTF8.self).lowercased())
    }
}
