import DigitKit
import Foundation

/// A clip of Tests/Fixtures/stream (made by Tests/Tools/make_stream_clips.py)
/// and the events its script says a correct reader reports.
package struct StreamClip: Decodable, CustomStringConvertible, Sendable {
    /// K, the frames that must agree, and how late an event may be decided
    /// after the first frame of its cause: within K+4 frames.
    package static let stable = 3
    package static let slack = stable + 4

    package struct Expected: Decodable, Sendable {
        package let event: String
        package let digit: Int?
        /// The first frame with the digit fully in view, or the first blank frame for a clear.
        package let first_frame: Int
    }

    package let clip: String
    package let format: String
    package let width: Int
    package let height: Int
    package let frames: Int
    package let events: [Expected]

    package var description: String { clip }

    package static let folder = Fixtures.path("stream")

    /// Every clip of the set, from its events file.
    package static func all() -> [StreamClip] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".events.json") }.sorted().compactMap { name in
            guard let data = FileManager.default.contents(atPath: "\(folder)/\(name)") else { return nil }
            return try? JSONDecoder().decode(StreamClip.self, from: data)
        }
    }

    /// A readable copy of the clip: itself, or for a gzipped one its
    /// content in a temporary file. The file is named by a digest of the
    /// gzipped bytes, so every test run shares one copy per clip version
    /// (named by process, each run left megabytes behind).
    package func path() throws -> String {
        let stored = "\(Self.folder)/\(clip)"
        guard clip.hasSuffix(".gz") else { return stored }
        guard let packed = FileManager.default.contents(atPath: stored) else {
            throw DigitError(.unreadableFile, "\(stored): cannot read")
        }
        // FNV-1a, 64 bits: enough to tell versions of one clip apart.
        let digest = packed.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        let plain = FileManager.default.temporaryDirectory
            .appendingPathComponent("digits-clip-\(String(digest, radix: 16))-\(clip.dropLast(3))").path
        if !FileManager.default.fileExists(atPath: plain) {
            // Written under a name of its own, then renamed: tests running in
            // parallel may unpack the same clip.
            let partial = plain + ".part-\(UUID().uuidString)"
            let result = try CommandRunner.run("/bin/sh", ["-c", "gzip -dc \"$1\" > \"$2\"", "sh", stored, partial])
            guard result.status == 0 else { throw DigitError(.unreadableFile, "gzip -dc \(clip): \(result.stderr)") }
            if rename(partial, plain) != 0 { try? FileManager.default.removeItem(atPath: partial) }
        }
        return plain
    }

    /// What is wrong with `events` (empty when they are right): the same
    /// events in the same order, each decided between the first frame of
    /// its cause and `slack` frames later.
    package func mismatches(_ events: [StreamEvent], slack: Int) -> [String] {
        var problems: [String] = []
        if events.count != self.events.count {
            problems.append("\(clip): \(events.count) events, expected \(self.events.count): \(events)")
        }
        for (got, expected) in zip(events, self.events) {
            let window = expected.first_frame...(expected.first_frame + slack)
            switch got {
            case .digit(let digit, _, let frame):
                if expected.event != "digit" || expected.digit != digit || !window.contains(frame) {
                    problems.append("\(clip): digit \(digit) at frame \(frame), expected \(expected.event) \(expected.digit.map(String.init) ?? "") in frames \(window)")
                }
            case .clear(let frame):
                if expected.event != "clear" || !window.contains(frame) {
                    problems.append("\(clip): clear at frame \(frame), expected \(expected.event) \(expected.digit.map(String.init) ?? "") in frames \(window)")
                }
            }
        }
        return problems
    }
}
