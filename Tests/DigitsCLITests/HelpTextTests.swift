import Foundation
import Testing
import TestSupport

/// What --help says is what the command does: no doubled defaults, no exit
/// statuses a command cannot give, nothing that points to files an installed
/// copy lacks, and commands that work when pasted.
@Suite("Help texts")
struct HelpTextTests {
    static func help(_ command: String) throws -> String {
        let result = try CommandRunner.digits([command, "--help"])
        #expect(result.status == 0)
        return result.stdout
    }

    /// `help(command)` on one line, runs of spaces made one: phrases the
    /// help wraps across lines can be searched for.
    static func flatHelp(_ command: String) throws -> String {
        try help(command).replacingOccurrences(of: "\n", with: " ")
            .replacingOccurrences(of: #" +"#, with: " ", options: .regularExpression)
    }

    @Test("each default is stated once")
    func defaultsOnce() throws {
        for command in ["classify", "read", "stream", "serve", "eval"] {
            let text = try Self.flatHelp(command)
            #expect(text.range(of: #"\(default [^)]*\)\. \(default: "#, options: .regularExpression) == nil, "\(command): \(text)")
        }
    }

    @Test("what - holds is said once, in each command's overview: several images for classify and read, one for preprocess")
    func standardInputInOverview() throws {
        for (command, holds) in [("classify", "images on standard input"), ("read", "images on standard input"),
                                 ("preprocess", "reads one picture from standard input")] {
            let text = try Self.flatHelp(command)
            let parts = text.components(separatedBy: "USAGE:")
            try #require(parts.count == 2, "\(command): \(text)")
            #expect(parts[0].contains(holds), "\(command): \(parts[0])")
            #expect(!parts[1].contains("reads images"), "\(command): \(parts[1])")
        }
    }

    @Test("ascii and preprocess, which run no classifier, list no exit status about the model, only the locator")
    func pictureCommandsExitStatus() throws {
        for command in ["ascii", "preprocess"] {
            let text = try Self.flatHelp(command)
            let exitStatus = try #require(text.range(of: "Exit status:").map { String(text[$0.lowerBound...]) })
                .components(separatedBy: "USAGE:")[0]
            #expect(exitStatus.hasPrefix("Exit status: 0 the picture was read"), "\(command)")
            #expect(!exitStatus.contains("model") && !exitStatus.contains("other files"), "\(command): \(exitStatus)")
            #expect(exitStatus.contains("ink locator") && exitStatus.contains("--no-locator"), "\(command): \(exitStatus)")
        }
    }

    @Test("read's help gives its JSON fields instead of pointing to a README an install does not have")
    func readJSONFields() throws {
        let text = try Self.help("read")
        #expect(!text.contains("README"))
        #expect(text.contains(#""text""#) && text.contains(#""box""#))
    }

    @Test("stream's webcam command keeps ffmpeg's banner off the live screen, and --threads says stream's default")
    func streamHelp() throws {
        let text = try Self.flatHelp("stream")
        #expect(text.contains("ffmpeg -loglevel error -f v4l2"))
        #expect(text.contains("stream: one)"))
    }
}
