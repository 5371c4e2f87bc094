import Foundation
import Testing
import TestSupport

/// `digits stream` polls Ctrl-C between frames; a frame that takes long
/// must not keep a second Ctrl-C waiting.
@Suite("digits stream, a second interrupt")
struct StreamSecondInterruptTests {
    @Test("the first Ctrl-C waits for the frame under way, a second one ends the process at once")
    func secondInterruptEndsAtOnce() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandRunner.digits)
        // Each frame held up 10 s after its analysis, the longest allowed.
        process.arguments = ["stream", "--json", "--every-frame", "--simulate-slow-analysis", "10000", "-"]
        let input = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        signal(SIGPIPE, SIG_IGN)
        try process.run()
        defer {
            if process.isRunning { process.terminate() }
            try? input.fileHandleForWriting.close()
        }
        // A frame that fails to decode is reported before the frame's slow analysis ends.
        try input.fileHandleForWriting.write(contentsOf: Fixtures.data("hostile/bad-crc.png"))
        let reported = Self.waitForLine(on: errors, containing: "CRC error", seconds: 120)
        #expect(reported)
        process.interrupt()
        Thread.sleep(forTimeInterval: 0.5)
        #expect(process.isRunning, "the first Ctrl-C waits for the next frame")
        process.interrupt()
        let deadline = Date().addingTimeInterval(3)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(!process.isRunning, "a second Ctrl-C ends the process at once")
        guard !process.isRunning else { return }
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGINT)
    }

    /// Reads `pipe` until it holds `text` or `seconds` have passed.
    static func waitForLine(on pipe: Pipe, containing text: String, seconds: Double) -> Bool {
        let found = DispatchSemaphore(value: 0)
        // A thread of its own: a block on a busy global queue may start after the timeout.
        Thread {
            var seen = Data()
            while true {
                let chunk = pipe.fileHandleForReading.availableData
                if chunk.isEmpty { return }
                seen.append(chunk)
                if String(decoding: seen, as: UTF8.self).contains(text) {
                    found.signal()
                    return
                }
            }
        }.start()
        return found.wait(timeout: .now() + seconds) == .success
    }
}
