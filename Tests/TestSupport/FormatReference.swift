import DigitKit
import Foundation
import Testing

/// One Pillow reference of Resources/formats (made by
/// Tests/Tools/make_format_fixtures.py): how a fixture must decode.
struct FormatReference: CustomTestStringConvertible, Sendable {
    let file: String
    /// "oriented" (ImageDecoder's default), "stored" (applyOrientation:
    /// false) or "maxSide=N" (reduced-size JPEG decoding).
    let decoding: String
    let width: Int
    let height: Int
    let offset: Int

    var testDescription: String { "\(file) (\(decoding))" }

    static let all: [FormatReference] = {
        (try? Fixtures.tsv("formats/reference.tsv"))?.compactMap { row in
            guard row.count == 5, let width = Int(row[2]), let height = Int(row[3]), let offset = Int(row[4]) else { return nil }
            return FormatReference(file: row[0], decoding: row[1], width: width, height: height, offset: offset)
        } ?? []
    }()

    static func matching(_ include: (FormatReference) -> Bool) -> [FormatReference] { all.filter(include) }

    var path: String { Fixtures.path("formats/\(file)") }

    /// The decoder this reference was made for.
    var decoder: ImageDecoder {
        if decoding == "stored" { return ImageDecoder(applyOrientation: false) }
        if decoding.hasPrefix("maxSide="), let side = Int(decoding.dropFirst("maxSide=".count)) { return ImageDecoder(maxSide: side) }
        return ImageDecoder()
    }

    /// Pillow's pixels, row-major.
    func pixels() throws -> [UInt8] {
        Array(try Fixtures.data("formats/gray.u8").subdata(in: offset..<(offset + width * height)))
    }

    /// The fixture decoded with `decoder` against Pillow's pixels: whether
    /// the sizes agree, and the largest grey-level difference.
    func comparedWithPillow() throws -> (sameSize: Bool, largestDifference: Int) {
        let image = try decoder.decode(fileAtPath: path)
        return (image.width == width && image.height == height, Self.largestDifference(image, try pixels()))
    }

    /// The largest difference between `image` and `expected`, pixel by pixel.
    static func largestDifference(_ image: GrayImage, _ expected: [UInt8]) -> Int {
        zip(image.pixels, expected).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }
}
