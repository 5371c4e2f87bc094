import DigitKit
@testable import digits
import Foundation
import Testing
import TestSupport

/// The threads `digits` starts while libtorch loads.
@Suite("Start-up threads")
struct StartupThreadsTests {
    /// A `digits serve` whose models are warm, with this environment: the
    /// fewest unnamed threads it has over half a second (a thread that comes
    /// and goes is not counted), and whether it runs OpenBLAS's pthreads
    /// build (libopenblasp), the one that starts a pool when it loads.
    static func unnamedThreads(environment: [String: String]) throws -> (count: Int, pthreadsBuild: Bool) {
        let server = try ServerUnderTest.ready(environment: environment)
        defer { _ = server.stop() }
        var fewest = Int.max
        for _ in 0..<5 {
            fewest = min(fewest, try #require(server.process.unnamedThreadCount))
            Thread.sleep(forTimeInterval: 0.1)
        }
        return (fewest, try #require(server.process.mapsLibrary(named: "libopenblasp") as Bool?))
    }

    @Test("digits starts no OpenBLAS pool thread of its own, and a user's OPENBLAS_NUM_THREADS, GOTO_NUM_THREADS or OMP_NUM_THREADS stands",
          .enabled(if: AvailableCores.count >= 2))
    func noOpenBLASPoolUnlessAsked() throws {
        var environment = CLI.environment
        for name in BLASThreadLimit.variables { environment[name] = nil }
        let own = try Self.unnamedThreads(environment: environment)
        // OpenBLAS's OpenMP build starts no pool when it loads: nothing to tell apart there.
        guard own.pthreadsBuild else { return }
        for name in BLASThreadLimit.variables {
            var told = environment
            told[name] = "2"
            let count = try Self.unnamedThreads(environment: told).count
            #expect(count == own.count + 1, "\(own.count) unnamed threads by default, \(count) with \(name)=2")
        }
    }
}
