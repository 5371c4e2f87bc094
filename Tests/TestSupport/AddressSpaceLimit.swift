import Foundation

/// Runs `digits` under `ulimit -v`, so that a test can show that an input
/// costs memory by what it holds, not by what its header claims.
package enum AddressSpaceLimit {
    /// Whether a limit on the address space means anything here: the
    /// sanitizers reserve terabytes of shadow memory up front, so a limited
    /// sanitized binary cannot even start.
    package static let isEnforceable: Bool = {
        let environment = ProcessInfo.processInfo.environment
        return environment["ASAN_OPTIONS"] == nil && environment["TSAN_OPTIONS"] == nil
    }()

    /// Runs the built `digits` with `arguments` in a shell whose address
    /// space is limited to `kibibytes`.
    package static func digits(_ arguments: [String], kibibytes: Int) throws -> CommandResult {
        try CommandRunner.run("/bin/sh", ["-c", "ulimit -v \(kibibytes) && exec \"$0\" \"$@\"", CommandRunner.digits] + arguments)
    }
}
