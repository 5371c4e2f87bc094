import Foundation
import Testing
import TestSupport

/// The live screen of `digits stream` fitted to the terminal, on a real
/// pseudo-terminal given a size with `stty` (util-linux `script`, as in
/// LiveViewTests): no redraw is taller or wider than the window, a resized
/// window is followed, and the digits seen are left on the screen at the end.
@Suite("digits stream live view fits the terminal")
struct LiveViewFitTests {
    static let escape = "\u{1B}["

    /// What `digits stream ARGUMENTS CLIP` drew on a terminal of `rows` x
    /// `columns`: each redraw's lines, and the lines left after the screen was restored.
    static func run(rows: Int, columns: Int, _ arguments: String, clip: StreamClip) throws -> (status: Int32, screens: [[String]], after: [String]) {
        try run("stty rows \(rows) cols \(columns); '\(CommandRunner.digits)' stream \(arguments) '\(try clip.path())'")
    }

    /// What the shell `command` drew on a terminal, as `run(rows:columns:_:clip:)`.
    static func run(_ command: String) throws -> (status: Int32, screens: [[String]], after: [String]) {
        let result = try CommandRunner.run("/usr/bin/env", ["script", "--quiet", "--flush", "--return", "--command", command, "/dev/null"])
        let parts = result.stdout.components(separatedBy: "\(escape)?1049l")
        let screens = (parts.first ?? "").components(separatedBy: "\(escape)H").dropFirst().filter { !$0.isEmpty }.map { screen in
            // What a redraw writes before clearing the rest of the screen; each line ends in \r\n.
            let drawn = screen.components(separatedBy: "\(escape)J").first ?? ""
            return Array(drawn.components(separatedBy: "\r\n").dropLast())
        }
        let after = (parts.dropFirst().first ?? "").replacingOccurrences(of: "\(escape)?25h", with: "")
            .components(separatedBy: "\r\n").filter { !$0.isEmpty }
        return (result.status, screens, after)
    }

    /// The line as it shows: without its escape sequences.
    static func visible(_ line: String) -> String {
        line.replacingOccurrences(of: "\u{1B}\\[[0-9;?]*[A-Za-z]", with: "", options: .regularExpression)
    }

    /// Whether `screen` fits `rows` x `columns` with the last row free for the cursor.
    static func fits(_ screen: [String], rows: Int, columns: Int) -> Bool {
        screen.count < rows && screen.allSatisfy { visible($0).count < columns }
    }

    static func monoClip() throws -> StreamClip {
        try #require(StreamClip.all().first { $0.format == "y4m-mono" && $0.width == 320 })
    }

    @Test("at 80x24 no redraw is taller or wider than the window; the picture is drawn at half size; the digits seen are left at the end")
    func fitsEightyByTwentyFour() throws {
        let clip = try Self.monoClip()
        let (status, screens, after) = try Self.run(rows: 24, columns: 80, "", clip: clip)
        #expect(status == 0)
        #expect(screens.count >= 5)
        let misfits = screens.filter { !Self.fits($0, rows: 24, columns: 80) }
        #expect(misfits.isEmpty, "\(misfits.count) of \(screens.count) redraws do not fit 80x24: \(misfits.first?.count ?? 0) lines")
        let digits = clip.events.compactMap(\.digit)
        #expect(screens.contains { screen in
            screen.filter { $0.contains("@") || $0.contains("#") }.count >= 3
                && screen.contains { line in digits.contains { line.hasPrefix("now:     \($0)  (") } }
        }, "no redraw showed a digit's picture and reading")
        #expect(screens.allSatisfy { $0.contains { $0.hasPrefix("speed:") } }, "the status lines are kept")
        #expect(after.count == 2, "\(after)")
        let seen = after.first ?? ""
        #expect(seen.hasPrefix("digits seen: \(digits.map(String.init).joined(separator: " ")) (frames "), "\(seen)")
        let frames = seen.split(separator: "(").last.map { $0.dropFirst("frames ".count).dropLast().split(separator: ", ").compactMap { Int($0) } } ?? []
        let firsts = clip.events.filter { $0.event == "digit" }.map(\.first_frame)
        #expect(frames.count == firsts.count && zip(frames, firsts).allSatisfy { ($1...($1 + 7)).contains($0) }, "\(seen)")
        #expect(after.last?.hasPrefix("end: \(clip.frames) frames, \(clip.frames) analysed, 0 dropped") == true, "\(after)")
    }

    @Test("a window resized while the stream runs is followed: the full picture once there is room")
    func followsResize() throws {
        let (clip, header, frames) = try StreamCLITests.monoClip()
        let path = try clip.path()
        // The window grows once 20 frames are written: with --every-frame the
        // writer waits for the analysis, so the first frames are drawn small.
        let first = header.count + 20 * frames[0].count
        let (status, screens, _) = try Self.run(
            "stty rows 24 cols 80; { head -c \(first) '\(path)'; stty rows 50 cols 120 < /dev/tty; tail -c +\(first + 1) '\(path)'; } "
                + "| '\(CommandRunner.digits)' stream --every-frame --simulate-slow-analysis 30 -")
        #expect(status == 0)
        let small = screens.prefix { Self.fits($0, rows: 24, columns: 80) }
        #expect(small.count >= 2, "the first redraws fit 80x24")
        let large = screens.dropFirst(small.count)
        #expect(!large.isEmpty && large.allSatisfy { Self.fits($0, rows: 50, columns: 120) && $0.count >= 2 + 1 + 28 + 1 + 3 },
                "after the resize every redraw has the 28-line picture: \(large.map(\.count))")
    }

    @Test("on a tiny window only the status lines are drawn, each cut to the width")
    func tinyWindow() throws {
        let clip = try Self.monoClip()
        let (status, screens, after) = try Self.run(rows: 6, columns: 30, "", clip: clip)
        #expect(status == 0)
        #expect(!screens.isEmpty && screens.allSatisfy { Self.fits($0, rows: 6, columns: 30) }, "\(screens.map(\.count))")
        #expect(screens.allSatisfy { $0.first?.hasPrefix("now:") == true })
        #expect(after.first?.hasPrefix("digits seen: ") == true)
    }
}
