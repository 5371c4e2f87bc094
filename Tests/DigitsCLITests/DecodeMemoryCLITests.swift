import Foundation
import Testing
import TestSupport

/// A batch of pictures whose headers ask for more memory than the process
/// has: each costs only its own result, never the others'.
@Suite("Decode memory, end to end")
struct DecodeMemoryCLITests {
    @Test("classify within a 2 GiB address space, far below the 9 GiB its 16 bombs claim: every good picture's result, each PNG bomb its own error, exit 1",
          .enabled(if: AddressSpaceLimit.isEnforceable))
    func boundedAddressSpace() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("decode-memory-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tiny16 = Data(PNGBombs.tiny16), valid16 = Data(PNGBombs.valid16)
        let good = ["seven", "two", "three-on-paper", "five-transparent"].map {
            Fixtures.repositoryRoot.appendingPathComponent("Examples/\($0).png").path
        }
        var files: [String] = [], expectedErrors: [String] = []
        for copy in 0..<8 {
            let tiny = "\(folder)/tiny16-\(copy).png", valid = "\(folder)/valid16-\(copy).png"
            try tiny16.write(to: URL(fileURLWithPath: tiny))
            try valid16.write(to: URL(fileURLWithPath: valid))
            files += [tiny, valid] + (copy % 2 == 0 ? [good[copy / 2]] : [])
            expectedErrors += [
                "digits: \(tiny): corrupt PNG: not enough image data: 12 bytes cannot inflate to the 536879104 bytes that the 8192x8192 picture needs",
                "digits: \(valid): decoding the 8192x8192 16-bit RGBA picture needs 576 MiB, over the limit of 512 MiB per picture",
            ]
        }
        // The process itself takes about 1.5 GiB of address space here (libtorch, eight workers'
        // heaps, OpenBLAS's 128 MiB buffers): at 1.5 GiB, OpenBLAS, which retries a failed mmap
        // forever, hung the forward pass once the binary grew by the server's code.
        let result = try AddressSpaceLimit.digits(["classify", "--threads", "8"] + files, kibibytes: 2_097_152)
        #expect(result.status == 1)
        #expect(result.stdoutLines.count == good.count)
        for picture in good {
            #expect(result.stdoutLines.contains { $0.hasPrefix("\(picture): ") }, "\(picture)")
        }
        #expect(result.stdoutLines.contains { $0.hasPrefix("\(good[0]): 7 (") })
        #expect(result.stderrLines == expectedErrors)
    }
}
