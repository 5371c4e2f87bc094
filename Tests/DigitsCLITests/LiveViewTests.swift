import Foundation
import Testing
import TestSupport

/// The live screen of `digits stream`, on a real pseudo-terminal: util-linux
/// `script` (Debian's essential bsdutils) runs the command with its output
/// on a pty and passes on what the command drew, escape sequences included.
/// (tmux's capture-pane would do too, but a tmux server started from a
/// Foundation Process does not outlive the client that starts it.)
@Suite("digits stream live view")
struct LiveViewTests {
    static let escape = "\u{1B}["

    @Test("on a terminal the screen redraws in place and shows the region as the model sees it, the digit and the stable digit")
    func screen() throws {
        let clip = try #require(StreamClip.all().first { $0.format == "y4m-mono" && $0.width == 320 })
        let path = try clip.path()
        let command = "\(CommandRunner.digits) stream \(path)"
        let result = try CommandRunner.run("/usr/bin/env", ["script", "--quiet", "--flush", "--return", "--command", command, "/dev/null"])
        #expect(result.status == 0, "\(result.stderr)")
        let output = result.stdout
        #expect(output.hasPrefix("\(Self.escape)?1049h\(Self.escape)?25l\(Self.escape)2J"),
                "the alternate screen is cleared and the cursor hidden first")
        // Each redraw starts at the top-left corner and ends by clearing what is below.
        let screens = output.components(separatedBy: "\(Self.escape)H").dropFirst(2)
        #expect(screens.count >= 5)
        let digits = Set(clip.events.compactMap(\.digit))
        let digitScreens = screens.filter { screen in
            let lines = screen.components(separatedBy: "\(Self.escape)K\r\n")
            let drawn = lines.filter { $0.contains("@@") || $0.contains("##") }.count
            guard drawn >= 5, let now = lines.first(where: { $0.hasPrefix("now:") }),
                  let stable = lines.first(where: { $0.hasPrefix("stable:") }) else { return false }
            return digits.contains { now.hasPrefix("now:     \($0)  (") && stable.hasPrefix("stable:  \($0)  (") }
        }
        #expect(!digitScreens.isEmpty, "no screen showed a digit drawn in ASCII with its reading and the stable digit")
        #expect(screens.allSatisfy { $0.contains("digits stream: \(path)") })
        #expect(output.contains("fps analysed"))
        #expect(output.contains("\(Self.escape)?25h"), "the cursor is shown again")
        let last = output.components(separatedBy: "\r\n").dropLast().last ?? ""
        #expect(last.hasSuffix("end: \(clip.frames) frames, \(clip.frames) analysed, 0 dropped, \(last.split(separator: " ").dropLast().last ?? "") fps"), "\(last)")
    }
}
