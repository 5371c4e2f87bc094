@testable import DigitKit
import Testing
import TestSupport

/// `ConnectedComponents.digit` alone: which components of an ink map make
/// the digit. Kept: the one holding the most ink and the large, not faint
/// pieces near it; dropped: specks, faint traces, and ink far away.
@Suite("Component selection")
struct ComponentSelectionTests {
    static let side = 100

    /// An ink map of the pixels for which `level(x, y)` is above 0.
    static func map(_ level: (Int, Int) -> Double) -> InkMap {
        var indices: [Int] = [], values: [Double] = []
        for y in 0..<side {
            for x in 0..<side where level(x, y) > 0 {
                indices.append(y * side + x)
                values.append(level(x, y))
            }
        }
        return InkMap(width: side, height: side, indices: indices, values: values)
    }

    /// A 3-pixel ring of radius 15 around (40, 40) with a gap at its top and
    /// bottom: a 0 broken in two by grain.
    static func brokenRing(_ x: Int, _ y: Int) -> Bool {
        let dx = Double(x - 40), dy = Double(y - 40)
        let r = (dx * dx + dy * dy).squareRoot()
        return r >= 13 && r < 16 && abs(x - 40) > 2
    }

    @Test("a digit broken in two keeps both halves; a speck and a small blob far away are dropped")
    func brokenDigitKept() throws {
        let map = Self.map { x, y in
            if Self.brokenRing(x, y) { return 1 }
            if x == 70 && y == 42 { return 1 }                          // a speck beside it
            if (88..<92).contains(x) && (88..<92).contains(y) { return 1 } // a blob in the corner
            return 0
        }
        let digit = try #require(ConnectedComponents.digit(in: map))
        #expect(digit.found == 4 && digit.kept == 2)
        #expect(digit.box == BoundingBox(minX: 25, minY: 25, maxX: 55, maxY: 55))
        #expect(Set(digit.map.indices) == Set(map.indices.filter { Self.brokenRing($0 % Self.side, $0 / Self.side) }))
    }

    @Test("the digit is the component with the most ink, not the largest: a long faint shadow edge stays out")
    func heaviestNotLargest() throws {
        let map = Self.map { x, y in
            if Self.brokenRing(x, y) && x < 40 { return 0.9 }   // the digit: half a ring, ~130 px
            if y == 80 && x >= 5 && x < 95 { return 0.05 }        // a sheet's shaded edge, 90 px...
            if y == 81 && x >= 5 && x < 95 { return 0.05 }        // ...two rows: more pixels than the digit
            return 0
        }
        let edge = map.indices.filter { $0 / Self.side >= 80 }.count
        #expect(edge > map.count - edge)
        let digit = try #require(ConnectedComponents.digit(in: map))
        #expect(digit.box.maxY < 80 && digit.box.maxX < 40)
        #expect(digit.kept == 1 && digit.found == 2)
    }

    @Test("a second digit far away is left out of the box but named among the parts")
    func secondDigitIsAPart() throws {
        let first: (Int, Int) -> Bool = { x, y in (10..<20).contains(x) && (10..<40).contains(y) }
        let second: (Int, Int) -> Bool = { x, y in (70..<78).contains(x) && (60..<90).contains(y) }
        let map = Self.map { x, y in first(x, y) ? 1 : second(x, y) ? 1 : 0 }
        let digit = try #require(ConnectedComponents.digit(in: map))
        #expect(digit.box == BoundingBox(minX: 10, minY: 10, maxX: 19, maxY: 39))
        #expect(digit.parts.count == 2)
        #expect(digit.parts.contains(BoundingBox(minX: 70, minY: 60, maxX: 77, maxY: 89)))
    }

    /// A bar 8 pixels wide from the top edge down to y 70 at x 80..<88: a
    /// pen running off the picture, heavier than the ring.
    static func pen(_ x: Int, _ y: Int) -> Bool { (80..<88).contains(x) && y < 70 }

    @Test("located ink running off the picture gives way to a digit apart from it inside: the pen beside the sheet")
    func penRunningOffThePicture() throws {
        let map = Self.map { x, y in Self.pen(x, y) || Self.brokenRing(x, y) ? 1 : 0 }
        let pen = map.indices.filter { Self.pen($0 % Self.side, $0 / Self.side) }.count
        #expect(pen > map.count - pen, "the pen must be the heaviest for this test to mean anything")
        let digit = try #require(ConnectedComponents.digit(in: map, located: true))
        #expect(digit.box == BoundingBox(minX: 25, minY: 25, maxX: 55, maxY: 55))
        #expect(digit.kept == 2 && digit.found == 3)
        // The rules' ink alone anchors on the heaviest, the bar (there a
        // desk's pattern, not a pen the locator marked, runs off the
        // picture), and the ring, within its reach, joins it.
        let rules = try #require(ConnectedComponents.digit(in: map))
        #expect(rules.box == BoundingBox(minX: 25, minY: 0, maxX: 87, maxY: 69))
    }

    @Test("located ink running off the picture stays the digit when nothing large lies apart from it: a tight crop's 1, a speck inside")
    func cutByTheFrameAlone() throws {
        let speck: (Int, Int) -> Bool = { x, y in (30..<33).contains(x) && (30..<33).contains(y) }
        let map = Self.map { x, y in Self.pen(x, y) || speck(x, y) ? 1 : 0 }
        let digit = try #require(ConnectedComponents.digit(in: map, located: true))
        #expect(digit.box == BoundingBox(minX: 80, minY: 0, maxX: 87, maxY: 69))
    }

    @Test("a piece of a located digit that reaches the edge keeps the digit's other pieces near it")
    func digitReachingTheEdge() throws {
        // The ring's left half moved to touch the left edge (x 0), its right
        // half 3 pixels on: one digit, both halves in its cluster.
        let map = Self.map { x, y in Self.brokenRing(x + 25, y) ? 1 : 0 }
        let digit = try #require(ConnectedComponents.digit(in: map, located: true))
        #expect(digit.kept == 2 && digit.box.minX == 0)
    }
}
