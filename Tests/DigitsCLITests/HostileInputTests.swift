import Foundation
import Testing
import TestSupport

/// Anything a user or an attacker can hand `digits`: each bad input gets one
/// line naming the file and the cause and exit status 1 (2 for a model),
/// and nothing else in the same run is lost.
@Suite("Hostile input")
struct HostileInputTests {
    static let good = Fixtures.repositoryRoot.appendingPathComponent("Examples/two.png").path
    static func hostile(_ name: String) -> String { Fixtures.path("hostile/\(name)") }

    /// File (in Tests/Fixtures/hostile) and the cause digits must report for it.
    static let brokenFiles: [(String, String)] = [
        ("empty.png", "empty file"),
        ("text.png", "not an image digits can read (PNG, JPEG or PNM)"),
        ("jpeg.png", "corrupt JPEG: byte 20 should start a marker but is 0x00"),
        ("truncated-at-4.png", "truncated PNG (4 bytes)"),
        ("truncated-at-8.png", "truncated PNG: the file ends before the IEND chunk"),
        ("truncated-at-20.png", "truncated PNG: the file ends inside the IHDR chunk"),
        ("truncated-at-33.png", "truncated PNG: the file ends before the IEND chunk"),
        ("truncated-at-127.png", "truncated PNG: the file ends inside the IDAT chunk"),
        ("truncated-at-242.png", "truncated PNG: the file ends before the IEND chunk"),
        ("truncated-at-253.png", "truncated PNG: the file ends inside the IEND chunk"),
        ("bad-crc.png", "corrupt PNG: IHDR: CRC error"),
        ("corrupt-zlib.png", "corrupt PNG: IDAT: invalid stored block lengths"),
        ("missing-idat.png", "corrupt PNG: no image data (IDAT chunk)"),
        ("huge-dimensions.png", "image is 100000x100000 pixels, over the limit of 67108864 pixels"),
        ("two-billion-wide.png", "corrupt PNG: Invalid IHDR data"),
        ("zero-width.png", "corrupt PNG: Invalid IHDR data"),
    ]

    @Test("every broken file: its own one-line error, exit 1, the good files still classified")
    func brokenFilesAmongGood() throws {
        let files = [Self.good] + Self.brokenFiles.map { Self.hostile($0.0) } + [Self.good]
        let result = try CommandRunner.digits(["classify"] + files)
        #expect(result.status == 1)
        #expect(result.stdoutLines.count == 2 && result.stdoutLines.allSatisfy { $0.hasPrefix("\(Self.good): 2 (") })
        #expect(result.stderrLines == Self.brokenFiles.map { "digits: \(Self.hostile($0.0)): \($0.1)" })
        // preprocess, given the same files in a list, names the same causes.
        let preprocessed = try CommandRunner.digits(["preprocess", "--json", "--files-from", "-"],
                                                    stdin: Data(files.joined(separator: "\n").utf8))
        #expect(preprocessed.status == 1)
        #expect(preprocessed.stdoutLines.count == 2 && preprocessed.stdoutLines.allSatisfy { $0.hasPrefix("{\"file\": \"\(Self.good)\", \"tensor\": [") })
        #expect(preprocessed.stderrLines == result.stderrLines)
    }

    @Test("unusual but valid pictures are read", arguments: [
        ("one-pixel.png", "no digit found"), ("one-by-5000.png", "no digit found"),
        ("rgba-16bit.png", "7 ("), ("palette-trns-interlaced.png", "7 ("),
    ])
    func unusualValidPictures(file: String, expected: String) throws {
        let result = try CommandRunner.digits(["classify", Self.hostile(file)])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("\(Self.hostile(file)): \(expected)"))
    }

    @Test("folders, missing paths, symlink loops and unusual names")
    func pathsOfEveryKind() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let loop = "\(folder)/loop.png"
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
        let named = "\(folder)/sieben – ä ö 七.png"
        try FileManager.default.copyItem(atPath: Fixtures.repositoryRoot.appendingPathComponent("Examples/seven.png").path, toPath: named)
        let result = try CommandRunner.digits(["classify", folder, "\(folder)/missing.png", loop, named, "\(folder)/missing/deeper.png"])
        #expect(result.status == 1)
        #expect(result.stdoutLines.count == 1 && result.stdout.hasPrefix("\(named): 7 ("))
        #expect(result.stderrLines == [
            "digits: \(folder): is a folder; add --recursive to take the images in it",
            "digits: \(folder)/missing.png: no such file",
            "digits: \(loop): too many levels of symbolic links",
            "digits: \(folder)/missing/deeper.png: no such file",
        ])
        let json = try CommandRunner.digits(["classify", "--json", named])
        #expect(json.stdout.contains("\"file\": \"\(named)\""))
        let preprocessed = try CommandRunner.digits(["preprocess", folder, "\(folder)/missing.png", loop, named, "\(folder)/missing/deeper.png"])
        #expect(preprocessed.status == 1)
        #expect(preprocessed.stdoutLines.count == 29 && preprocessed.stdoutLines[0] == "==> \(named) <==")
        #expect(preprocessed.stderrLines == result.stderrLines)
    }

    /// Root reads every file through the DAC_OVERRIDE and DAC_READ_SEARCH
    /// capabilities (CI runs as root); util-linux's setpriv drops them from
    /// the bounding set before exec, so digits meets the permission check a
    /// normal user would.
    static let withoutRootsReadOverride: [String] =
        getuid() == 0 ? ["/usr/bin/env", "setpriv", "--bounding-set=-dac_override,-dac_read_search"] : []

    @Test("a file without read permission")
    func unreadableFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("locked-\(UUID().uuidString).png").path
        try FileManager.default.copyItem(atPath: Self.good, toPath: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: path)
        let command = Self.withoutRootsReadOverride + [CommandRunner.digits, "classify", path, Self.good]
        let result = try CommandRunner.run(command[0], Array(command.dropFirst()))
        #expect(result.status == 1)
        #expect(result.stderrLines == ["digits: \(path): permission denied"])
        #expect(result.stdoutLines.count == 1 && result.stdout.hasPrefix("\(Self.good): 2 ("))
    }

    /// A PNG signature and IHDR chunk of a 1x1 grey picture. Computed, not
    /// stored: LeakSanitizer reports a static Data's buffer as leaked.
    static var pngHead: Data { Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
                               0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0, 0x3A, 0x7E, 0x9B, 0x55]) }

    /// A chunk's length and type (its data and CRC to follow).
    static func chunkHeader(length: UInt32, type: String) -> Data {
        Data([UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + Array(type.utf8))
    }

    @Test("standard input: empty, garbage, and larger than the 256 MiB limit")
    func standardInputOfEveryKind() throws {
        #expect(try CommandRunner.digits(["classify", "-"], stdin: Data()).stderrLines == ["digits: -: empty file"])
        #expect(try CommandRunner.digits(["classify", "-"], stdin: Data("GIF89a".utf8)).stderrLines == ["digits: -: a GIF image, which digits does not read; convert it to PNG first (for example: convert in.gif out.png, or ffmpeg -i in.gif out.png)"])
        // A chunk that claims 2 GiB is refused from its header, before anything is buffered.
        let claims = try CommandRunner.digits(["classify", "-", Self.good], stdin: Self.pngHead + Self.chunkHeader(length: 0x7FFF_FFFF, type: "abCd"))
        #expect(claims.status == 1)
        #expect(claims.stderrLines == ["digits: -: image is larger than the limit of 268435456 bytes"])
        #expect(claims.stdout.hasPrefix("\(Self.good): 2 ("))
        // 300 MiB of real chunks: refused when the image passes the limit.
        var huge = Self.pngHead
        let chunk = Self.chunkHeader(length: 1 << 20, type: "abCd") + Data(count: (1 << 20) + 4)
        for _ in 0..<300 { huge += chunk }
        let streamed = try CommandRunner.digits(["classify", "-", Self.good], stdin: huge)
        #expect(streamed.status == 1)
        #expect(streamed.stderrLines == ["digits: -: image is larger than the limit of 268435456 bytes"])
        #expect(streamed.stdout.hasPrefix("\(Self.good): 2 ("))
    }

    @Test("models that cannot be used: exit 2, what is wrong and what to do", arguments: [
        ("empty", "empty file, not a TorchScript model; export the model with torch.jit.script(model).save(path)"),
        ("random-bytes", "not a TorchScript model (not a zip archive); export the model with torch.jit.script(model).save(path)"),
        ("not-torchscript", "a zip archive, but not a TorchScript model; export the model with torch.jit.script(model).save(path)"),
        ("state-dict", "saved with torch.save (a state dict or pickled module), not a TorchScript export"),
        ("newer-pytorch", "saved by a newer PyTorch than this libtorch"),
        ("wrong-shape", "not a digit model: expected forward to return a float tensor of shape [1, 10] or [1, 11], got a Float tensor of shape [1, 3]"),
        ("tuple-output", "got a tuple of 2 elements"),
        ("three-channels", "expected input[1, 1, 28, 28] to have 3 channels, but got 1 channels instead"),
        ("raises", "this model always fails"),
    ])
    func unusableModels(name: String, cause: String) throws {
        let model = Fixtures.model(name)
        let result = try CommandRunner.digits(["classify", "--model", model, Self.good])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.hasPrefix("digits: \(model): ") && result.stderr.contains(cause), "\(result.stderr)")
    }
}
