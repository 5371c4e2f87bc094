@testable import DigitKit
import Foundation
import Testing
import TestSupport

/// EXIF orientation: the eight transforms on a small asymmetric image, the
/// TIFF reader on hostile blocks, and pictures stored turned with the tag
/// that undoes it, in JPEG (APP1) and PNG (eXIf).
@Suite("EXIF orientation")
struct ExifOrientationTests {
    /// 3 wide, 2 high:   1 2 3
    ///                   4 5 6
    static let stored = try! GrayImage(width: 3, height: 2, pixels: [1, 2, 3, 4, 5, 6])

    /// Each orientation's upright picture, worked out by hand from the EXIF
    /// meaning of the value (row 0 and column 0 of the stored picture are the
    /// visual top/left, right, bottom or left...).
    static let expected: [(ExifOrientation, Int, Int, [UInt8])] = [
        (.identity, 3, 2, [1, 2, 3,
                           4, 5, 6]),
        (.flipHorizontal, 3, 2, [3, 2, 1,
                                 6, 5, 4]),
        (.rotate180, 3, 2, [6, 5, 4,
                            3, 2, 1]),
        (.flipVertical, 3, 2, [4, 5, 6,
                               1, 2, 3]),
        (.transpose, 2, 3, [1, 4,
                            2, 5,
                            3, 6]),
        (.rotateClockwise, 2, 3, [4, 1,
                                  5, 2,
                                  6, 3]),
        (.transverse, 2, 3, [6, 3,
                             5, 2,
                             4, 1]),
        (.rotateCounterClockwise, 2, 3, [3, 6,
                                         2, 5,
                                         1, 4]),
    ]

    @Test("each of the eight orientations on a 3x2 image", arguments: expected)
    func transforms(orientation: ExifOrientation, width: Int, height: Int, pixels: [UInt8]) {
        let upright = orientation.apply(to: Self.stored)
        #expect(upright.width == width && upright.height == height)
        #expect(upright.pixels == pixels)
    }

    @Test("1x1 and single-row images survive every orientation")
    func degenerateSizes() throws {
        let dot = try GrayImage(width: 1, height: 1, pixels: [9])
        let row = try GrayImage(width: 4, height: 1, pixels: [1, 2, 3, 4])
        for orientation in ExifOrientation.allCases {
            #expect(orientation.apply(to: dot) == dot)
            let turned = orientation.apply(to: row)
            #expect(turned.pixels.sorted() == [1, 2, 3, 4])
            #expect(turned.width == (orientation.swapsSides ? 1 : 4))
        }
    }

    @Test("tag values outside 1-8 mean as stored")
    func outOfRangeValues() {
        #expect(ExifOrientation(tagValue: 0) == .identity)
        #expect(ExifOrientation(tagValue: 9) == .identity)
        #expect(ExifOrientation(tagValue: 65535) == .identity)
        #expect(ExifOrientation(tagValue: 6) == .rotateClockwise)
    }

    /// A TIFF block whose IFD0 holds `entries` (tag, type, count, value).
    static func tiff(bigEndian: Bool = false, firstIFD: UInt32 = 8, entries: [(UInt16, UInt16, UInt32, UInt16)],
                     claimedCount: UInt16? = nil, nextIFD: UInt32 = 0) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: UInt32) -> [UInt8] { bigEndian ? u16(UInt16(v >> 16)) + u16(UInt16(v & 0xFFFF)) : u16(UInt16(v & 0xFFFF)) + u16(UInt16(v >> 16)) }
        var block: [UInt8] = (bigEndian ? Array("MM".utf8) : Array("II".utf8)) + u16(42) + u32(firstIFD)
        block += u16(claimedCount ?? UInt16(entries.count))
        for (tag, type, count, value) in entries { block += u16(tag) + u16(type) + u32(count) + u16(value) + [0, 0] }
        return block + u32(nextIFD)
    }

    static func read(_ block: [UInt8]) -> ExifOrientation { ExifReader.orientation(tiff: block[...]) }

    @Test("reads Orientation from little- and big-endian IFD0s")
    func readsBothByteOrders() {
        for bigEndian in [false, true] {
            for value in 1...8 {
                let block = Self.tiff(bigEndian: bigEndian, entries: [(0x0100, 4, 1, 28), (0x0112, 3, 1, UInt16(value))])
                #expect(Self.read(block) == ExifOrientation(rawValue: value), "bigEndian \(bigEndian), value \(value)")
            }
        }
    }

    @Test("hostile and malformed blocks mean as stored, never a crash")
    func hostileBlocks() {
        let six: (UInt16, UInt16, UInt32, UInt16) = (0x0112, 3, 1, 6)
        let good = Self.tiff(entries: [six])
        #expect(Self.read(good) == .rotateClockwise)
        #expect(Self.read([]) == .identity)
        #expect(Self.read(Array(good.prefix(7))) == .identity)  // cut inside the header
        #expect(Self.read(Array("XX".utf8) + good.dropFirst(2)) == .identity)  // no byte order
        #expect(Self.read(Array(good.prefix(2)) + [43, 0] + good.dropFirst(4)) == .identity)  // not 42
        #expect(Self.read(Self.tiff(firstIFD: 0xFFFF_FFFF, entries: [six])) == .identity)  // IFD0 far outside
        #expect(Self.read(Self.tiff(firstIFD: UInt32(good.count - 1), entries: [six])) == .identity)  // count cut off
        #expect(Self.read(Self.tiff(firstIFD: 4, entries: [six])) == .identity)  // inside the header
        #expect(Self.read(Self.tiff(entries: [six], claimedCount: 0xFFFF)) == .identity)  // absurd count
        #expect(Self.read(Array(good.prefix(good.count - 6))) == .identity)  // entry cut off
        #expect(Self.read(Self.tiff(entries: [(0x0112, 4, 1, 6)])) == .identity)  // LONG, not SHORT
        #expect(Self.read(Self.tiff(entries: [(0x0112, 3, 2, 6)])) == .identity)  // two values
        #expect(Self.read(Self.tiff(entries: [(0x0112, 3, 1, 0)])) == .identity)
        #expect(Self.read(Self.tiff(entries: [(0x0112, 3, 1, 9)])) == .identity)
        #expect(Self.read(Self.tiff(entries: [(0x0100, 4, 1, 1)])) == .identity)  // no Orientation
        // IFD0 linking to itself: the link is never followed.
        #expect(Self.read(Self.tiff(entries: [six], nextIFD: 8)) == .rotateClockwise)
        // A slice that does not start at index 0 reads the same.
        let padded = [0, 0, 0] + good
        #expect(ExifReader.orientation(tiff: padded[3...]) == .rotateClockwise)
    }

    static let references = FormatReference.matching { $0.file.hasPrefix("orientation-") }

    @Test("pictures stored turned decode like Pillow's exif_transpose, or as stored when asked", arguments: references)
    func likePillow(_ reference: FormatReference) throws {
        let (sameSize, worst) = try reference.comparedWithPillow()
        #expect(sameSize)
        #expect(worst <= 1, "largest difference \(worst)")
    }

    @Test("every orientation shows the upright picture: exactly in PNG, within JPEG's loss in JPEG", arguments: 1...8)
    func showsUpright(orientation: Int) throws {
        let upright = try ImageDecoder().decode(fileAtPath: Fixtures.path("formats/upright.png"))
        let png = try ImageDecoder().decode(fileAtPath: Fixtures.path("formats/orientation-\(orientation).png"))
        #expect(png == upright)
        let jpeg = try ImageDecoder().decode(fileAtPath: Fixtures.path("formats/orientation-\(orientation).jpg"))
        #expect(jpeg.width == upright.width && jpeg.height == upright.height)
        let differences = zip(jpeg.pixels, upright.pixels).map { abs(Int($0) - Int($1)) }
        let mean = Double(differences.reduce(0, +)) / Double(differences.count)
        #expect(mean < 3, "mean difference \(mean)")
        #expect(differences.max() ?? 0 < 40, "largest difference \(differences.max() ?? 0)")
        let stored = try ImageDecoder(applyOrientation: false).decode(fileAtPath: Fixtures.path("formats/orientation-\(orientation).png"))
        #expect(stored.width == (orientation >= 5 ? upright.height : upright.width))
        #expect(ExifOrientation(tagValue: orientation).apply(to: stored) == upright)
    }

    @Test("broken EXIF in a good picture: decoded as stored", arguments: [
        "exif-offset-outside.jpg", "exif-entry-count-absurd.jpg", "exif-orientation-0.jpg", "exif-orientation-9.jpg",
        "exif-ifd-loop.jpg", "exif-truncated-entry.jpg", "exif-offset-outside.png",
    ])
    func brokenExif(file: String) throws {
        let path = Fixtures.path("hostile/\(file)")
        #expect(try ImageDecoder().decode(fileAtPath: path) == (try ImageDecoder(applyOrientation: false).decode(fileAtPath: path)))
    }

    @Test("the EXIF block is found in a JPEG's APP1 and a PNG's eXIf, and nowhere else")
    func locator() throws {
        let jpeg = Array(try Fixtures.data("formats/orientation-6.jpg"))
        let png = Array(try Fixtures.data("formats/orientation-6.png"))
        #expect(ExifLocator.tiffBlock(in: jpeg, format: .jpeg).map { Array($0.prefix(4)) } == Array("MM".utf8) + [0, 42])
        #expect(ExifLocator.tiffBlock(in: png, format: .png).map { Array($0.prefix(4)) } == Array("MM".utf8) + [0, 42])
        #expect(ExifLocator.tiffBlock(in: Array(try Fixtures.data("formats/seven-q90.jpg")), format: .jpeg) == nil)
        #expect(ExifLocator.tiffBlock(in: Array(try Fixtures.data("formats/upright.png")), format: .png) == nil)
        #expect(ExifLocator.tiffBlock(in: Array(png.prefix(40)), format: .png) == nil)
        #expect(ExifLocator.tiffBlock(in: Array(jpeg.prefix(30)), format: .jpeg) == nil)
    }
}
