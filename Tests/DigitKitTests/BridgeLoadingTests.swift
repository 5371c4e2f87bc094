import DigitKit
import Foundation
import Testing
import TestSupport

/// The digits executable loads libtorch only when a command runs a model:
/// the bridge (libDigitsTorchBridge.so) is opened on first use.
@Suite("Loading the libtorch bridge on first use")
struct BridgeLoadingTests {
    static let seven = Fixtures.repositoryRoot.appendingPathComponent("Examples/seven.png").path

    /// The shared libraries the dynamic linker loaded for `arguments`
    /// (glibc's LD_DEBUG=libs trace, which goes to stderr).
    static func librariesLoaded(by arguments: [String]) throws -> (result: CommandResult, libraries: [String]) {
        var environment = CLI.environment
        environment["LD_DEBUG"] = "libs"
        let result = try CLI.digits(arguments, environment: environment)
        let libraries = result.stderr.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "calling init: ") else { return nil }
            return String(line[range.upperBound...])
        }
        return (result, libraries)
    }

    @Test("commands that run no model never load libtorch", arguments: [
        ["--help"], ["--version"], ["ascii", "--no-locator", BridgeLoadingTests.seven],
        ["preprocess", "--no-locator", BridgeLoadingTests.seven],
        ["--generate-completion-script", "bash"],
    ])
    func noModelNoTorch(arguments: [String]) throws {
        let (result, libraries) = try Self.librariesLoaded(by: arguments)
        #expect(result.status == 0, "\(result.stderr.suffix(300))")
        #expect(libraries.contains { $0.contains("libpng") }, "the trace lists the libraries loaded")
        #expect(!libraries.contains { $0.contains("libtorch") || $0.contains("DigitsTorchBridge") }, "\(libraries)")
    }

    @Test("classify loads the bridge and libtorch")
    func classifyLoadsTorch() throws {
        let (result, libraries) = try Self.librariesLoaded(by: ["classify", Self.seven])
        #expect(result.status == 0)
        #expect(result.stdout.hasSuffix("seven.png: 7 (100.0%)\n"))
        #expect(libraries.contains { $0.hasSuffix("/libDigitsTorchBridge.so") })
        #expect(libraries.contains { $0.contains("libtorch_cpu.so") })
    }

    @Test("ascii and preprocess load libtorch for the ink locator, which shows the ink classify uses",
          arguments: ["ascii", "preprocess"])
    func locatorLoadsTorch(command: String) throws {
        let (result, libraries) = try Self.librariesLoaded(by: [command, Self.seven])
        #expect(result.status == 0)
        #expect(libraries.contains { $0.contains("libtorch_cpu.so") })
    }

    @Test("without the bridge: the commands that need no model work, classify and ascii say what is missing (exit 2)")
    func missingBridge() throws {
        var environment = CLI.environment
        environment["DIGITS_TORCH_BRIDGE"] = "/nonexistent/libDigitsTorchBridge.so"
        let ascii = try CLI.digits(["ascii", "--no-locator", Self.seven], environment: environment)
        #expect(ascii.status == 0)
        let located = try CLI.digits(["ascii", Self.seven], environment: environment)
        #expect(located.status == 2 && located.stdout.isEmpty)
        #expect(located.stderr == "digits: the libtorch bridge named by DIGITS_TORCH_BRIDGE, "
            + "/nonexistent/libDigitsTorchBridge.so, is not a readable file\n")
        let version = try CLI.digits(["--version"], environment: environment)
        #expect(version.status == 0)
        #expect(version.stdout.contains("(libtorch unknown: bridge library not found)"))
        let classify = try CLI.digits(["classify", Self.seven], environment: environment)
        #expect(classify.status == 2)
        #expect(classify.stdout.isEmpty)
        #expect(classify.stderr == "digits: the libtorch bridge named by DIGITS_TORCH_BRIDGE, "
            + "/nonexistent/libDigitsTorchBridge.so, is not a readable file\n")
    }

    @Test("DIGITS_TORCH_BRIDGE naming a FIFO or a folder: no hang, exit 2 naming it")
    func fifoOrFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digits-bridge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        for path in [fifo, folder.path] {
            var environment = CLI.environment
            environment["DIGITS_TORCH_BRIDGE"] = path
            let version = try CLI.digits(["--version"], environment: environment)
            #expect(version.status == 0)
            let classify = try CLI.digits(["classify", Self.seven], environment: environment)
            #expect(classify.status == 2)
            #expect(classify.stderr == "digits: the libtorch bridge named by DIGITS_TORCH_BRIDGE, \(path), is not a readable file\n")
        }
    }

    @Test("a file that is not the bridge is refused with the dynamic linker's reason (exit 2)")
    func notABridge() throws {
        var environment = CLI.environment
        environment["DIGITS_TORCH_BRIDGE"] = Self.seven
        let result = try CLI.digits(["classify", Self.seven], environment: environment)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("digits: cannot open the libtorch bridge: \(Self.seven): "), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test("--version reads the libtorch version from the bridge library without loading libtorch")
    func versionWithoutLoading() throws {
        let (result, libraries) = try Self.librariesLoaded(by: ["--version"])
        #expect(!libraries.contains { $0.contains("libtorch") })
        let version = try #require(TorchRuntime.torchVersion)
        #expect(version.wholeMatch(of: /\d+\.\d+\.\d+/) != nil)
        #expect(result.stdout.hasSuffix("(libtorch \(version))\n"))
    }
}
