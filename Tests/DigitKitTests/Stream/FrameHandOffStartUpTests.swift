@testable import DigitKit
import Testing
import TestSupport

/// FrameHandOff from a pipe: the frames that arrive before the analysis is
/// ready are the start of the video and are kept (within a bound); after
/// that only the newest frame waits.
@Suite("Frame hand-off at start-up")
struct FrameHandOffStartUpTests {
    static func frame(_ index: Int, side: Int = 4) throws -> VideoFrame {
        VideoFrame(index: index, content: .luma(try GrayImage(width: side, height: side, pixels: Array(repeating: 0, count: side * side))),
                   readTime: 0)
    }

    static func takeIndex(_ handOff: FrameHandOff) -> Int? {
        if case .frame(let frame) = handOff.take(shouldStop: { false }) { return frame.index }
        return nil
    }

    @Test("before the analysis is ready every frame is kept, up to the bound; beyond it the newest replaces the last")
    func keptUntilReady() throws {
        let handOff = FrameHandOff(policy: .newestFrame)
        let count = FrameHandOff.startUpFrames + 10
        for index in 0..<count { #expect(handOff.put(try Self.frame(index))) }
        #expect(handOff.droppedCount == 10)
        var taken: [Int] = []
        for _ in 0..<FrameHandOff.startUpFrames { taken += Self.takeIndex(handOff).map { [$0] } ?? [] }
        #expect(taken == Array(0..<(FrameHandOff.startUpFrames - 1)) + [count - 1])
    }

    @Test("once the analysis is ready, a frame that arrives while the kept ones wait replaces only the newest")
    func newestAfterReady() throws {
        let handOff = FrameHandOff(policy: .newestFrame)
        for index in 0..<3 { _ = handOff.put(try Self.frame(index)) }
        #expect(Self.takeIndex(handOff) == 0)
        for index in 3..<6 { _ = handOff.put(try Self.frame(index)) }
        #expect(handOff.droppedCount == 2)
        #expect([Self.takeIndex(handOff), Self.takeIndex(handOff), Self.takeIndex(handOff)] == [1, 2, 5])
    }

    @Test("the frames kept at start-up are bounded in bytes too")
    func boundedInBytes() throws {
        let handOff = FrameHandOff(policy: .newestFrame)
        let side = 2048
        let perFrame = side * side
        for index in 0..<(FrameHandOff.startUpBytes / perFrame + 3) { _ = handOff.put(try Self.frame(index, side: side)) }
        #expect(handOff.droppedCount == 3)
    }

    @Test("once abandoned (its run ended), the hand-off ends a second run at once instead of waiting for ever")
    func abandonedEnds() throws {
        let handOff = FrameHandOff(policy: .newestFrame)
        _ = handOff.put(try Self.frame(0))
        handOff.abandon()
        // Stopped after a second, so that waiting for ever fails instead of hanging.
        let deadline = StreamClock.now() + 1
        guard case .end(nil) = handOff.take(shouldStop: { StreamClock.now() > deadline }) else {
            Issue.record("a frame or a stop after abandon")
            return
        }
    }
}
