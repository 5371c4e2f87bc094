import DigitKit
import Foundation

/// `swift run digits classify …` in a fresh checkout: SwiftPM builds only the
/// executable, not the libtorch bridge library it opens on first use. Run
/// from a SwiftPM build folder of the checkout it was compiled from, digits
/// builds the bridge there itself, once, before loading a model. Nowhere
/// else: an installed copy never builds anything.
enum CheckoutBridgeBuild {
    /// The root of the package this file was compiled in
    /// (Sources/digits/CheckoutBridgeBuild.swift, three levels down).
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The configuration ("debug", "release") of a SwiftPM build folder of
    /// `packageRoot` that `executable` lies in, else nil.
    static func configuration(ofExecutable executable: String) -> String? {
        let folder = URL(fileURLWithPath: executable).deletingLastPathComponent().standardizedFileURL
        let build = URL(fileURLWithPath: packageRoot).appendingPathComponent(".build").standardizedFileURL.path
        guard folder.path.hasPrefix(build + "/"),
              FileManager.default.fileExists(atPath: "\(packageRoot)/Package.swift") else { return nil }
        let configuration = folder.lastPathComponent
        return ["debug", "release"].contains(configuration) ? configuration : nil
    }

    /// Builds the bridge beside this executable when it is missing there
    /// and the executable is a checkout build; SwiftPM's output goes to
    /// standard error, so standard output keeps only results. Does nothing
    /// when the bridge is found, DIGITS_TORCH_BRIDGE names one, or this is
    /// not a checkout build; a failed build is left to the usual "not found".
    static func buildIfMissing() {
        // The cheap tests first: looking for the bridge reads its file (for
        // its libtorch version), which an installed copy need never do here.
        guard ProcessInfo.processInfo.environment["DIGITS_TORCH_BRIDGE"].map({ $0.isEmpty }) ?? true,
              let executable = Bundle.main.executablePath,
              let configuration = configuration(ofExecutable: executable),
              TorchRuntime.torchVersion == nil else { return }
        StandardError.report("the libtorch bridge is not built yet (swift run builds only the executable); "
            + "building it once: swift build -c \(configuration) --product DigitsTorchBridge")
        let build = Process()
        build.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        build.arguments = ["swift", "build", "-c", configuration, "--product", "DigitsTorchBridge", "--package-path", packageRoot]
        build.standardOutput = FileHandle.standardError
        build.standardInput = FileHandle.nullDevice
        do {
            try build.run()
            build.waitUntilExit()
        } catch {
            StandardError.report("cannot run swift build: \(error.localizedDescription)")
        }
    }
}
