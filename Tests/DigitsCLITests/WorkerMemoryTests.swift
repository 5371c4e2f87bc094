import DigitKit
import Foundation
import Testing
import TestSupport

/// What many workers cost in address space, which a `ulimit -v` or a
/// container's limit caps.
@Suite("Worker memory")
struct WorkerMemoryTests {
    /// glibc gives each thread that contends for malloc an arena of its own (up to eight per
    /// CPU), each reserving 64 MiB of address space: eight workers on 100 photos mapped
    /// 1.55-1.6 GB, and a release build crashed under a 1.3 GB limit. One arena per CPU keeps
    /// them near 1.15 GB on 2 cores (more cores, more arenas: the bound is for 2).
    @Test("classify --threads 8 on 100 photos maps at most 1.35 GB of address space at its peak",
          .enabled(if: AddressSpaceLimit.isEnforceable && AvailableCores.count <= 2
                   && ProcessInfo.processInfo.environment["MALLOC_ARENA_MAX"] == nil))
    func eightWorkersPeakAddressSpace() throws {
        let folder = Fixtures.resources.appendingPathComponent("photos").path
        let photos = try FileManager.default.contentsOfDirectory(atPath: folder)
            .filter { $0.hasSuffix(".png") || $0.hasSuffix(".jpg") }.sorted().prefix(100).map { "\(folder)/\($0)" }
        #expect(photos.count == 100)
        let command = try RunningCommand(["classify", "--threads", "8"] + photos)
        var peak = 0
        // VmPeak only grows, so the last reading before the process ends is its peak so far.
        while command.isRunning {
            if let reading = command.peakAddressSpace { peak = max(peak, reading) }
            usleep(20_000)
        }
        let result = command.finish()
        #expect(result.status == 0)
        #expect(result.stdoutLines.count == photos.count)
        #expect(peak > 0)
        #expect(peak <= 1_318_359, "VmPeak \(peak) KiB")  // 1.35 GB
    }
}
