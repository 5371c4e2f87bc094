@testable import DigitKit
import Foundation
import Testing
import TestSupport

/// LineDecoding, the CTC search behind the line model, on frames whose best
/// paths can be worked out by hand.
@Suite("Decoding a line model's frames")
struct LineDecodingTests {
    /// A frame whose class `best` has probability `p` and the other ten share the rest.
    static func frame(_ best: Int, _ p: Double = 0.9) -> [Float] {
        (0..<LineModel.classCount).map { Float(log($0 == best ? p : (1 - p) / 10)) }
    }

    /// Blank is class 0; digit d is class d + 1.
    static let blank = 0
    static func digit(_ d: Int) -> Int { d + 1 }

    @Test("a digit held over frames is written once; a blank between repeats writes it twice")
    func repeats() {
        let frames = [Self.blank, Self.digit(4), Self.digit(4), Self.blank, Self.digit(4), Self.digit(7), Self.blank].map { Self.frame($0) }
        let decoding = LineDecoding(frames)
        let best = decoding.best.indices.filter { decoding.best[$0] != nil }.max { decoding.best[$0]!.score < decoding.best[$1]!.score }!
        let reading = decoding.best[best]!
        #expect(reading.characters.map(\.digit) == [4, 4, 7])
        #expect(reading.characters.map(\.firstFrame) == [1, 4, 5])
        #expect(reading.characters.map(\.lastFrame) == [2, 4, 5])
        // The path of every frame's best class: seven frames of 0.9.
        #expect(abs(reading.score - 7 * log(0.9)) < 1e-6)
    }

    @Test("each count has its own best path, and the digits' log-probabilities add up to the path's")
    func counts() throws {
        let frames = [Self.digit(1), Self.blank, Self.digit(2), Self.blank, Self.digit(3)].map { Self.frame($0, 0.8) }
        let decoding = LineDecoding(frames)
        #expect(decoding.best.count == 5)
        let three = try #require(decoding.best[2])
        #expect(three.characters.map(\.digit) == [1, 2, 3])
        let sum = three.characters.reduce(0) { $0 + $1.logProbability }
        #expect(abs(sum - three.score) < 1e-9)
        // Two digits cost one frame's 0.8 against 0.02: a digit read as blank, or held on.
        let two = try #require(decoding.best[1])
        #expect(two.characters.count == 2)
        #expect(abs(two.score - (4 * log(0.8) + log(0.02))) < 1e-6)
        // Five digits need five changes of class over five frames: every frame a new digit.
        let five = try #require(decoding.best[4])
        #expect(five.characters.count == 5 && five.score < two.score)
    }

    @Test("one frame holds one digit at most; no frames give no reading")
    func bounds() {
        let decoding = LineDecoding([Self.frame(Self.digit(9))])
        #expect(decoding.best.count == 1)
        #expect(decoding.best[0]?.characters.map(\.digit) == [9])
        #expect(LineDecoding([]).best.isEmpty)
    }
}
