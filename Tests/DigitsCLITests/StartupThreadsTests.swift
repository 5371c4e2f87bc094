import DigitKit
import Foundation
import Testing
import TestSupport

/// The threads `digits` starts while libtorch loads.
@Suite("Start-up threads")
struct StartupThreadsTests {
    /// Unnamed threads of a `digits serve` whose models are warm, with this environment.
    static func unnamedThreads(environment: [String: String]) throws -> Int? {
        let server = try ServerUnderTest(environment: environment)
        defer { _ = server.stop() }
        #expect(try server.waitUntilReady().status == 200)
        return server.process.unnamedThreadCount
    }

    /// OpenBLAS starts a pool thread per further core when libtorch loads unless
    /// OPENBLAS_NUM_THREADS says otherwise; that thread spun through the load.
    @Test("digits starts no OpenBLAS pool thread of its own, and a user's OPENBLAS_NUM_THREADS stands",
          .enabled(if: AvailableCores.count >= 2))
    func noOpenBLASPoolUnlessAsked() throws {
        var environment = CLI.environment
        environment["OPENBLAS_NUM_THREADS"] = nil
        let own = try #require(try Self.unnamedThreads(environment: environment))
        environment["OPENBLAS_NUM_THREADS"] = "2"
        let asked = try #require(try Self.unnamedThreads(environment: environment))
        #expect(asked == own + 1, "\(own) unnamed threads by default, \(asked) with OPENBLAS_NUM_THREADS=2")
    }
}
