/// Image formats digits does not read but recognizes by their first bytes,
/// so that refusing one names the format and says how to convert it,
/// instead of calling a photo "not an image".
///
/// Only signatures are looked at, within a bounded prefix (at most
/// `svgSearchLength` bytes, for SVG); nothing here parses the file.
struct UnsupportedFormat: Equatable, Sendable {
    /// The format with its article, as the message starts: "a GIF image".
    let name: String
    /// Commands that convert a file of this format to PNG, in.<ext> to out.png.
    let conversions: [String]

    /// The one-line refusal, for example "a GIF image, which digits does not
    /// read; convert it to PNG first (for example: convert in.gif out.png, or
    /// ffmpeg -i in.gif out.png)".
    var message: String {
        "\(name), which digits does not read; convert it to PNG first (for example: \(conversions.joined(separator: ", or ")))"
    }

    static let gif = UnsupportedFormat(name: "a GIF image", conversions: ["convert in.gif out.png", "ffmpeg -i in.gif out.png"])
    static let webp = UnsupportedFormat(name: "a WebP image", conversions: ["dwebp in.webp -o out.png", "convert in.webp out.png"])
    static let heif = UnsupportedFormat(name: "a HEIC/HEIF image", conversions: ["heif-convert in.heic out.png", "convert in.heic out.png"])
    static let avif = UnsupportedFormat(name: "an AVIF image", conversions: ["avifdec in.avif out.png", "heif-convert in.avif out.png"])
    static let tiff = UnsupportedFormat(name: "a TIFF image", conversions: ["convert in.tif out.png", "ffmpeg -i in.tif out.png"])
    static let bmp = UnsupportedFormat(name: "a BMP image", conversions: ["convert in.bmp out.png", "ffmpeg -i in.bmp out.png"])
    static let pdf = UnsupportedFormat(name: "a PDF document", conversions: ["pdftoppm -png -singlefile -r 150 in.pdf out"])
    static let svg = UnsupportedFormat(name: "an SVG drawing", conversions: ["rsvg-convert in.svg -o out.png", "convert in.svg out.png"])
    static let jpegXL = UnsupportedFormat(name: "a JPEG XL image", conversions: ["djxl in.jxl out.png"])
    static let jpeg2000 = UnsupportedFormat(name: "a JPEG 2000 image", conversions: ["opj_decompress -i in.jp2 -o out.png", "convert in.jp2 out.png"])
    static let pam = UnsupportedFormat(name: "a PAM image (P7)", conversions: ["pamtopng in.pam > out.png", "convert in.pam out.png"])

    /// How far into a text file `identify` looks for an `<svg` element.
    static let svgSearchLength = 1024

    /// The format `bytes` are recognizably in, or nil.
    static func identify(_ bytes: [UInt8]) -> UnsupportedFormat? {
        func at(_ offset: Int, _ text: String) -> Bool {
            bytes.dropFirst(offset).starts(with: text.utf8)
        }
        if at(0, "GIF87a") || at(0, "GIF89a") { return .gif }
        if at(0, "RIFF") && at(8, "WEBP") { return .webp }
        if at(4, "ftyp") { return isoMediaImage(bytes) }
        if at(0, "II*\0") || at(0, "MM\0*") || at(0, "II+\0") || at(0, "MM\0+") { return .tiff }
        if isBMP(bytes) { return .bmp }
        if at(0, "%PDF-") { return .pdf }
        if bytes.starts(with: [0xFF, 0x0A]) || at(0, "\0\0\0\u{0C}JXL \r\n") { return .jpegXL }
        if bytes.starts(with: [0xFF, 0x4F, 0xFF, 0x51]) || at(0, "\0\0\0\u{0C}jP  \r\n") { return .jpeg2000 }
        if at(0, "P7\n") { return .pam }
        if isSVG(bytes) { return .svg }
        return nil
    }

    /// HEIF (HEIC) and AVIF are ISO media files whose first box, `ftyp`,
    /// lists brands: the major brand at offset 8, compatible brands from
    /// offset 16 to the end of the box. AVIF files often carry HEIF's
    /// "mif1" as well, so AVIF brands are looked for first. At most 64
    /// brands within the box and the file are read. Other ISO media (MP4
    /// video, say) is not an image: nil.
    private static func isoMediaImage(_ bytes: [UInt8]) -> UnsupportedFormat? {
        guard bytes.count >= 12 else { return nil }
        let boxSize = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        let boxEnd = min(max(boxSize, 12), bytes.count, 16 + 64 * 4)
        var brands = [Array(bytes[8..<12])]
        var offset = 16
        while offset + 4 <= boxEnd {
            brands.append(Array(bytes[offset..<(offset + 4)]))
            offset += 4
        }
        let named = Set(brands.map { String(decoding: $0, as: UTF8.self) })
        if !named.isDisjoint(with: ["avif", "avis"]) { return .avif }
        if !named.isDisjoint(with: ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs", "mif1", "msf1"]) { return .heif }
        return nil
    }

    /// "BM", then a file header whose info-header size (offset 14) is one
    /// that BMP versions use: two letters alone would catch text files.
    private static func isBMP(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 18, bytes.starts(with: "BM".utf8) else { return false }
        let infoSize = Int(bytes[14]) | Int(bytes[15]) << 8 | Int(bytes[16]) << 16 | Int(bytes[17]) << 24
        return [12, 16, 40, 52, 56, 64, 108, 124].contains(infoSize)
    }

    /// Text (after an optional UTF-8 byte-order mark and whitespace) that
    /// starts like XML or an SVG element and has an `<svg` element within
    /// its first `svgSearchLength` bytes.
    private static func isSVG(_ bytes: [UInt8]) -> Bool {
        var head = bytes.prefix(svgSearchLength)
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { head = head.dropFirst(3) }
        head = head.drop { PNMHeader.isWhitespace($0) }
        guard head.starts(with: "<?xml".utf8) || head.starts(with: "<svg".utf8) || head.starts(with: "<!DOCTYPE svg".utf8) else {
            return false
        }
        let element = Array("<svg".utf8)
        return head.indices.contains { head[$0...].starts(with: element) }
    }
}
