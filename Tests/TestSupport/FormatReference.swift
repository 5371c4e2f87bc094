import DigitKit
import Foundation
import Testing

/// One Pillow reference of Tests/Fixtures/formats (made by
/// Tests/Tools/make_format_fixtures.py): how a fixture must decode.
package struct FormatReference: CustomTestStringConvertible, Sendable {
    package let file: String
    /// "oriented" (ImageDecoder's default), "stored" (applyOrientation:
    /// false) or "maxSide=N" (reduced-size JPEG decoding).
    package let decoding: String
    package let width: Int
    package let height: Int
    package let offset: Int

    package var testDescription: String { "\(file) (\(decoding))" }

    package static let all: [FormatReference] = {
        (try? Fixtures.tsv("formats/reference.tsv"))?.compactMap { row in
            guard row.count == 5, let width = Int(row[2]), let height = Int(row[3]), let offset = Int(row[4]) else { return nil }
            return FormatReference(file: row[0], decoding: row[1], width: width, height: height, offset: offset)
        } ?? []
    }()

    package static func matching(_ include: (FormatReference) -> Bool) -> [FormatReference] { all.filter(include) }

    package var path: String { Fixtures.path("formats/\(file)") }

    /// The decoder this reference was made for.
    package var decoder: ImageDecoder {
        if decoding == "stored" { return ImageDecoder(applyOrientation: false) }
        if decoding.hasPrefix("maxSide="), let side = Int(decoding.dropFirst("maxSide=".count)) { return ImageDecoder(maxSide: side) }
        return ImageDecoder()
    }

    /// Pillow's pixels, row-major.
    package func pixels() throws -> [UInt8] {
        Array(try Fixtures.data("formats/gray.u8").subdata(in: offset..<(offset + width * height)))
    }

    /// The fixture decoded with `decoder` against Pillow's pixels: whether
    /// the sizes agree, and the largest grey-level difference.
    package func comparedWithPillow() throws -> (sameSize: Bool, largestDifference: Int) {
        let image = try decoder.decode(fileAtPath: path)
        return (image.width == width && image.height == height, Self.largestDifference(image, try pixels()))
    }

    /// The largest difference between `image` and `expected`, pixel by pixel.
    package static func largestDifference(_ image: GrayImage, _ expected: [UInt8]) -> Int {
        zip(image.pixels, expected).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }
}
