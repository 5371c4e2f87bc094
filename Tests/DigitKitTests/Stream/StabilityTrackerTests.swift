import DigitKit
import Testing
import TestSupport

@Suite("Stability of stream events")
struct StabilityTrackerTests {
    /// Feeds readings written as "7" (confident 7), "7?" (uncertain 7) or
    /// "-" (no digit) and returns the events with their frames.
    static func events(_ readings: String, k: Int = 3) -> [String] {
        var tracker = StabilityTracker(stableFrames: k)
        var events: [String] = []
        for (frame, token) in readings.split(separator: " ").enumerated() {
            let reading: FrameReading
            if token == "-" {
                reading = .noDigit
            } else if token.hasSuffix("?") {
                reading = .uncertain(digit: Int(token.dropLast())!, confidence: 0.5)
            } else {
                reading = .confident(digit: Int(token)!, confidence: 0.99)
            }
            switch tracker.observe(reading, frame: frame) {
            case .digit(let digit, _, let at)?: events.append("\(digit)@\(at)")
            case .clear(let at)?: events.append("clear@\(at)")
            case nil: break
            }
        }
        return events
    }

    @Test("a digit is reported once, at the K-th agreeing frame, and not again while it stays")
    func reportedOnce() {
        #expect(Self.events("- - 7 7 7 7 7 7 7") == ["7@4"])
        #expect(Self.events("7 7 7 7", k: 1) == ["7@0"])
    }

    @Test("a clear comes K frames after the digit went, and re-arms the same digit")
    func clearRearms() {
        #expect(Self.events("7 7 7 - - - 7 7 7") == ["7@2", "clear@5", "7@8"])
        #expect(Self.events("- - - - 4 4 4 - -") == ["4@6"])
    }

    @Test("one odd frame (an occlusion, motion blur) neither reports nor clears")
    func oneOddFrame() {
        #expect(Self.events("7 7 7 7 1 7 7 7 7") == ["7@2"])
        #expect(Self.events("7 7 7 7 - 7 7 7") == ["7@2"])
        #expect(Self.events("7 7 7 3? 7 7 - 7 7") == ["7@2"])
        #expect(Self.events("7 7 1 7 7 7") == ["7@5"])
    }

    @Test("a swap reports the new digit without a clear between")
    func swap() {
        #expect(Self.events("7 7 7 7 7? 3 3 3 3") == ["7@2", "3@7"])
    }

    @Test("uncertain readings never report, and K of them clear a reported digit")
    func uncertain() {
        #expect(Self.events("7? 7? 7? 7? 7?") == [])
        #expect(Self.events("7 7 7 7? 7? 7?") == ["7@2", "clear@5"])
    }

    @Test("nothing is cleared before anything was reported")
    func noClearFirst() {
        #expect(Self.events("- - - - - -") == [])
    }
}
