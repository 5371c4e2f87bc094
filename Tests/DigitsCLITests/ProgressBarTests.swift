import Foundation
@testable import digits
import Testing
import TestSupport

/// The progress bar's text: the rate and the time left come from the inputs
/// finished since the first, never from the start-up before it.
@Suite("Progress bar")
struct ProgressBarTests {
    @Test("no rate or time left until half a second and three inputs have passed since the first")
    func noEstimateFromStartUp() {
        // The first of 2,000 files done, 0.6 s after start: the old bar said "1/s  33:19 left".
        #expect(ProgressBar.line(done: 1, total: 2000, unit: "files", measured: (0, 0)) == "[" + String(repeating: ".", count: 30) + "] 1/2000 files")
        #expect(!ProgressBar.line(done: 3, total: 2000, unit: "files", measured: (2, 5)).contains("/s"))
        #expect(!ProgressBar.line(done: 40, total: 2000, unit: "files", measured: (39, 0.3)).contains("/s"))
    }

    @Test("the rate is the inputs since the first over the seconds since it")
    func rateSinceFirst() {
        let line = ProgressBar.line(done: 1001, total: 2000, unit: "files", measured: (1000, 2))
        #expect(line == "[" + String(repeating: "#", count: 15) + String(repeating: ".", count: 15) + "] 1001/2000 files  500/s  0:02 left")
        #expect(ProgressBar.line(done: 500, total: nil, unit: "files", measured: (499, 1)) == "500 files  499/s")
    }
}

/// A folder walk or a list has no total at the start; the bar gets one
/// when the last input has been taken.
@Suite("Progress bar total")
struct ProgressBarTotalTests {
    @Test("the inputs of --recursive report their count once the walk ends, and the bar takes it as its total")
    func totalFromTheWalk() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bar-total-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: "\(folder)/inner", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let seven = Fixtures.repositoryRoot.appendingPathComponent("Examples/seven.png").path
        for name in ["a.png", "b.png", "inner/c.png"] { try FileManager.default.copyItem(atPath: seven, toPath: "\(folder)/\(name)") }
        let options = try InputOptions.parse(["--recursive", folder])
        #expect(options.knownCount == nil)
        let bar = ProgressBar(total: options.knownCount, unit: "files")
        var taken = 0
        for _ in options.inputs(counted: bar.totalFound) {
            #expect(bar.total == nil, "no total while the walk goes on")
            taken += 1
        }
        #expect(taken == 3 && bar.total == 3)
    }
}
