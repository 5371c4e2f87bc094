@testable import DigitKit
import Foundation
import Testing
import TestSupport

/// Where inputs come from: lists of paths, folders, shards, images on a stream.
@Suite("Input sources")
struct InputSourcesTests {
    static func scratch() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digits-inputs-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    static let seven = Fixtures.repositoryRoot.appendingPathComponent("Examples/seven.png").path
    static let two = Fixtures.repositoryRoot.appendingPathComponent("Examples/two.png").path

    static func names(_ inputs: some Sequence<ClassificationInput>) -> [String] {
        inputs.map(\.origin.name)
    }

    @Test("a list of paths: one per line (spaces, CRLF, blank lines) or NUL-separated (newlines in names)")
    func fileLists() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let lines = "\(folder)/a b.png\r\n\n\(folder)/ä 七.png\n\(folder)/last.png"
        try Data(lines.utf8).write(to: URL(fileURLWithPath: "\(folder)/list.txt"))
        #expect(Self.names(FileList(path: "\(folder)/list.txt", separator: .newline)) == ["\(folder)/a b.png", "\(folder)/ä 七.png", "\(folder)/last.png"])
        try Data("\(folder)/two\nlines.png\0\0\(folder)/x.png\0".utf8).write(to: URL(fileURLWithPath: "\(folder)/list0"))
        #expect(Self.names(FileList(path: "\(folder)/list0", separator: .nul)) == ["\(folder)/two\nlines.png", "\(folder)/x.png"])
        let missing = Array(FileList(path: "\(folder)/none.txt", separator: .newline))
        #expect(missing.count == 1)
        if case .failure(let error) = missing.first?.source { #expect(error.description == "\(folder)/none.txt: no such file") } else { Issue.record("expected a failure") }
        try (Data(repeating: UInt8(ascii: "x"), count: FileList.maxEntryBytes + 10) + Data("\n\(folder)/after.png\n".utf8))
            .write(to: URL(fileURLWithPath: "\(folder)/runaway"))
        let runaway = Array(FileList(path: "\(folder)/runaway", separator: .newline))
        #expect(runaway.count == 2)
        if case .failure(let error) = runaway.first?.source { #expect(error.message == "line 1 is longer than 65536 bytes; skipped") } else { Issue.record("expected a failure") }
        #expect(runaway.last?.origin.name == "\(folder)/after.png")
        try Data("-\n\(folder)/x.png\n".utf8).write(to: URL(fileURLWithPath: "\(folder)/dash"))
        #expect(Self.names(FileList(path: "\(folder)/dash", separator: .newline)) == ["./-", "\(folder)/x.png"])
    }

    @Test("a folder: every picture by content or name, sorted, sub-folders included, links to folders not followed")
    func folders() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let files = FileManager.default
        try files.createDirectory(atPath: "\(folder)/b/inner", withIntermediateDirectories: true)
        try files.copyItem(atPath: Self.seven, toPath: "\(folder)/b/inner/z.png")
        try files.copyItem(atPath: Self.seven, toPath: "\(folder)/a.png")
        try files.copyItem(atPath: Self.two, toPath: "\(folder)/B-no-extension")
        try files.copyItem(atPath: Self.two, toPath: "\(folder)/c.png")
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: "\(folder)/notes.png"))
        try Data().write(to: URL(fileURLWithPath: "\(folder)/empty.png"))
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: "\(folder)/notes.txt"))
        try files.createSymbolicLink(atPath: "\(folder)/link-to-c.png", withDestinationPath: "\(folder)/c.png")
        try files.createSymbolicLink(atPath: "\(folder)/b/loop", withDestinationPath: folder)
        #expect(Self.names(ImageFolder(path: folder)) == [
            "\(folder)/B-no-extension", "\(folder)/a.png", "\(folder)/b/inner/z.png", "\(folder)/c.png", "\(folder)/empty.png",
            "\(folder)/link-to-c.png", "\(folder)/notes.png",
        ])
        let missing = Array(ImageFolder(path: "\(folder)/nothing"))
        #expect(missing.count == 1 && missing.first?.origin.name == "\(folder)/nothing")
    }

    @Test("shards: every input in exactly one of N, spread round-robin", arguments: [1, 2, 3, 7])
    func shards(count: Int) throws {
        let inputs = (0..<50).map { ClassificationInput.file("f\($0)") }
        var seen: [String] = []
        for index in 0..<count {
            let part = Self.names(try InputShard(index: index, count: count).select(inputs))
            #expect(abs(part.count - 50 / count) <= 1)
            seen += part
        }
        #expect(seen.sorted() == Self.names(inputs).sorted())
        #expect(Set(seen).count == 50)
    }

    @Test("shards of pictures: an input that failed before any picture was read is in every shard and takes no position",
          arguments: [2, 3])
    func failuresInEveryShard(count: Int) throws {
        let files = (0..<10).map { ClassificationInput.file("f\($0)") }
        let failure = { (name: String) in
            ClassificationInput(source: .failure(DigitError(.unreadableFile, "no such file")), origin: InputOrigin(name: name))
        }
        let inputs = [failure("list")] + files.prefix(4) + [failure("scans")] + files.dropFirst(4)
        for index in 0..<count {
            let shard = try InputShard(index: index, count: count)
            let part = Self.names(shard.selectPictures(inputs))
            #expect(part.filter { !$0.hasPrefix("f") } == ["list", "scans"])
            #expect(part.filter { $0.hasPrefix("f") } == Self.names(shard.select(files)))
        }
    }

    @Test("shard syntax is checked", arguments: ["2/2", "-1/3", "1/0", "1", "a/b", "1/2/3", ""])
    func badShards(text: String) {
        #expect(throws: DigitError.self) { try InputShard(parsing: text) }
    }

    /// The images of `data` as ConcatenatedImages reads them from a pipe.
    static func concatenated(_ data: Data) throws -> [ClassificationInput] {
        let pipe = Pipe()
        let writer = Thread {
            try? pipe.fileHandleForWriting.write(contentsOf: data)
            try? pipe.fileHandleForWriting.close()
        }
        writer.start()
        let inputs = Array(ConcatenatedImages(descriptor: pipe.fileHandleForReading.fileDescriptor, name: "-"))
        try pipe.fileHandleForReading.close()
        return inputs
    }

    @Test("concatenated PNGs on a stream: each image with its index, in order")
    func concatenatedImages() throws {
        let seven = try Data(contentsOf: URL(fileURLWithPath: Self.seven)), two = try Data(contentsOf: URL(fileURLWithPath: Self.two))
        let inputs = try Self.concatenated(seven + two + seven)
        #expect(inputs.map(\.origin.label) == ["-[0]", "-[1]", "-[2]"])
        let decoded = try inputs.map { input -> GrayImage in
            guard case .bytes(let bytes) = input.source else { throw DigitError(.invalidArgument, "not bytes") }
            return try PNGDecoder().decode(bytes: bytes)
        }
        #expect(decoded[0] == (try PNGDecoder().decode(fileAtPath: Self.seven)))
        #expect(decoded[1] == (try PNGDecoder().decode(fileAtPath: Self.two)))
    }

    static func format(_ name: String) throws -> Data { try Fixtures.data("formats/\(name)") }

    @Test("PNG, JPEG and binary PNM mixed on one stream, each read to its own end")
    func mixedFormats() throws {
        let names = ["seven-q90.jpg", "p5-8bit.pgm", "progressive-q85-420.jpg", "p6-16bit-maxval-1000.ppm", "p4-bitmap.pbm",
                     "restart-markers-q90-420.jpg", "cmyk-q90.jpg"]
        let seven = try Data(contentsOf: URL(fileURLWithPath: Self.seven))
        let data = try names.reduce(seven) { $0 + (try Self.format($1)) } + seven
        let inputs = try Self.concatenated(data)
        #expect(inputs.map(\.origin.label) == (0...names.count + 1).map { "-[\($0)]" })
        for (input, name) in zip(inputs.dropFirst(), names) {
            guard case .bytes(let bytes) = input.source else {
                Issue.record("\(name): not read")
                continue
            }
            #expect(Data(bytes) == (try Self.format(name)), "\(name)")
        }
    }

    @Test("a broken stream: the images before the break, then one failure naming where", arguments: [
        ("truncated", "-[1]: truncated PNG: the stream ends inside the IDAT chunk"),
        ("garbage", "-[1]: not an image (PNG, JPEG or PNM) after 1 image"),
        ("empty", "-: empty file"),
        ("only garbage", "-: a GIF image, which digits does not read; convert it to PNG first (for example: convert in.gif out.png, or ffmpeg -i in.gif out.png)"),
        ("JPEG cut off", "-[1]: truncated JPEG: the stream ends inside the image data"),
        ("PNM cut off", "-[1]: truncated PNM: the stream ends inside the pixel data"),
        ("plain PNM", "-[1]: a plain (text) PNM image cannot be told apart from the next one in a stream; use binary PNM (P4, P5, P6)"),
    ])
    func brokenStreams(kind: String, expected: String) throws {
        let seven = try Data(contentsOf: URL(fileURLWithPath: Self.seven))
        let data: Data
        switch kind {
        case "truncated": data = seven + seven.prefix(seven.count - 30)
        case "garbage": data = seven + Data("\nGIF89a and more".utf8)
        case "empty": data = Data()
        case "JPEG cut off": data = seven + (try Self.format("seven-q90.jpg")).dropLast(40)
        case "PNM cut off": data = seven + (try Self.format("p5-8bit.pgm")).dropLast(10)
        case "plain PNM": data = seven + (try Self.format("p2-8bit-comments.pgm"))
        default: data = Data("GIF89a".utf8)
        }
        let inputs = try Self.concatenated(data)
        let failure = try #require(inputs.last)
        guard case .failure(let error) = failure.source else {
            Issue.record("the last input should be a failure")
            return
        }
        #expect("\(failure.origin.label): \(error.message)" == expected)
        #expect(inputs.count == (kind == "empty" || kind == "only garbage" ? 1 : 2))
    }
}
