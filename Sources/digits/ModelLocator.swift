import DigitKit
import Foundation

/// Finds the model file when --model is not given.
enum ModelLocator {
    static let environmentVariable = "DIGITS_MODEL"
    /// Where the shipped model lives in a checkout.
    static let checkoutPath = "Models/digits.pt"
    /// Where an install puts it, relative to the executable's folder.
    static let installedPath = "../share/digits/digits.pt"

    /// The model path: `explicit`, else $DIGITS_MODEL, else the first existing
    /// Models/digits.pt in the executable's folder or the current folder or
    /// any folder above either, else ../share/digits/digits.pt beside the executable.
    static func locate(explicit: String?) throws(DigitError) -> String {
        if let explicit { return explicit }
        if let fromEnvironment = ProcessInfo.processInfo.environment[environmentVariable], !fromEnvironment.isEmpty {
            return fromEnvironment
        }
        let candidates = searchPaths()
        if let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) {
            return found
        }
        throw DigitError(.modelNotFound,
                         "no model found: pass --model PATH or set \(environmentVariable) (looked for \(checkoutPath) above the executable and the current directory)")
    }

    static func searchPaths() -> [String] {
        var paths: [String] = []
        let executableFolder = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent()
        let currentFolder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        for start in [executableFolder, currentFolder].compactMap({ $0 }) {
            var folder = start.standardizedFileURL
            while true {
                paths.append(folder.appendingPathComponent(checkoutPath).path)
                let parent = folder.deletingLastPathComponent()
                if parent.path == folder.path { break }
                folder = parent
            }
        }
        if let executableFolder {
            paths.append(executableFolder.appendingPathComponent(installedPath).standardizedFileURL.path)
        }
        return paths
    }
}
