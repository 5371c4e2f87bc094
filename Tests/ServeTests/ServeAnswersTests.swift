import Foundation
import Testing
import TestSupport

/// `POST /v1/classify` and `/v1/read` answer what `classify --json` and
/// `read --json` print for the same picture, without "file".
@Suite("digits serve answers as the CLI does")
struct ServeAnswersTests {
    let examples = Fixtures.repositoryRoot.appendingPathComponent("Examples").path

    /// The CLI's JSON line for `file`, "file" removed, re-serialized for comparison.
    func cliAnswer(_ command: String, _ file: String, _ options: [String] = []) throws -> NSDictionary {
        let result = try CommandRunner.digits([command, "--json"] + options + [file])
        var object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        object["file"] = nil
        return object as NSDictionary
    }

    @Test("a single picture's answer equals classify --json's, for a digit, not a digit and no digit")
    func classifyMatchesCLI() throws {
        let server = try ServerUnderTest.ready()
        defer { _ = server.stop() }
        for (name, type) in [("seven.png", "image/png"), ("eight-photo-400.png", "image/png"), ("letter-p.jpg", "image/jpeg"),
                             ("blank-paper.png", "image/png"), ("ruled-paper-three.jpg", "image/jpeg")] {
            let file = "\(examples)/\(name)"
            let response = try server.post("/v1/classify?top=3", file: file, type: type)
            #expect(response.status == 200, "\(name): \(response.text)")
            #expect(response.headers["content-type"] == "application/json")
            let served = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? NSDictionary)
            #expect(served == (try cliAnswer("classify", file, ["--top", "3"])), "\(name): \(response.text)")
        }
    }

    @Test("a second look's answer, with its own warning, and a note measured again are served as classify --json gives them")
    func secondLookMatchesCLI() throws {
        let server = try ServerUnderTest.ready()
        defer { _ = server.stop() }
        for (name, warning) in [("windows/window-liberation-7.png", "read inside a window"), ("notes/note-0009-9.png", nil),
                                ("other-ink/desk-card-corner-6.jpg", "read from other located ink")] {
            let file = Fixtures.path(name)
            let response = try server.post("/v1/classify", file: file, type: name.hasSuffix(".jpg") ? "image/jpeg" : "image/png")
            #expect(response.status == 200, "\(name): \(response.text)")
            let served = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? NSDictionary)
            #expect(served == (try cliAnswer("classify", file)), "\(name): \(response.text)")
            #expect((served["warnings"] as? [String])?.first == warning, "\(name): \(response.text)")
        }
    }

    @Test("a number's reading equals read --json's")
    func readMatchesCLI() throws {
        let server = try ServerUnderTest.ready()
        defer { _ = server.stop() }
        for name in ["price-3.14.png", "touching-4711.png", "minus-12.png"] {
            let file = "\(examples)/numbers/\(name)"
            let response = try server.post("/v1/read", file: file)
            #expect(response.status == 200, "\(name): \(response.text)")
            let served = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? NSDictionary)
            #expect(served == (try cliAnswer("read", file)), "\(name): \(response.text)")
        }
        let length = try server.post("/v1/read?length=4", file: "\(examples)/numbers/touching-4711.png")
        #expect(length.json["text"] as? String == "4711", "\(length.text)")
    }

    @Test("a multipart body is answered part by part, in order, a part that is no picture with its error")
    func multipart() throws {
        let server = try ServerUnderTest()
        defer { _ = server.stop() }
        let files: [(name: String, bytes: [UInt8])] = try [("seven.png", "seven.png"), ("two.png", "two.png"), ("notes.txt", "seven.gif"), ("four.png", "four-large.png")]
            .map { ($0.0, [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(examples)/\($0.1)")))) }
        let (body, type) = HTTPTestClient.multipart(files)
        let response = try server.request("POST", "/v1/classify", headers: ["Content-Type": type], body: body)
        #expect(response.status == 200, "\(response.text)")
        let results = try #require(response.json["results"] as? [[String: Any]])
        #expect(results.count == 4)
        #expect(results.map { $0["index"] as? Int } == [0, 1, 2, 3])
        #expect(results.map { $0["file"] as? String } == ["seven.png", "two.png", "notes.txt", "four.png"])
        #expect(results[0]["digit"] as? Int == 7)
        #expect(results[1]["digit"] as? Int == 2)
        #expect((results[2]["error"] as? String)?.hasPrefix("notes.txt: ") == true, "\(results[2])")
        #expect(results[2]["digit"] == nil)
        #expect(results[3]["digit"] as? Int == 4)
    }

    @Test("preprocessed=true adds the 28x28 the model saw: 784 bytes, ink where the digit is")
    func preprocessedPicture() throws {
        let server = try ServerUnderTest()
        defer { _ = server.stop() }
        let response = try server.post("/v1/classify?preprocessed=true", file: "\(examples)/seven.png")
        let picture = try #require(response.json["preprocessed"] as? [String: Any], "\(response.text)")
        #expect(picture["width"] as? Int == 28 && picture["height"] as? Int == 28)
        let pixels = try #require(Data(base64Encoded: picture["pixels"] as? String ?? ""))
        #expect(pixels.count == 784)
        // The MNIST box: ink inside the central 20x20, none on the outer rows.
        #expect(pixels.prefix(28 * 3).allSatisfy { $0 == 0 })
        #expect(pixels.filter { $0 > 128 }.count > 40)
        let without = try server.post("/v1/classify", file: "\(examples)/seven.png")
        #expect(without.json["preprocessed"] == nil)
    }

    @Test("query options act as the CLI's flags: raw, invert, uncertain_below")
    func options() throws {
        let server = try ServerUnderTest.ready()
        defer { _ = server.stop() }
        let file = "\(examples)/seven.png"
        let strict = try server.post("/v1/classify?uncertain_below=1", file: file)
        #expect(strict.json["uncertain"] as? Bool == true, "\(strict.text)")
        let raw = try server.post("/v1/classify?raw=true", file: file)
        #expect(NSDictionary(dictionary: raw.json) == (try cliAnswer("classify", file, ["--raw"])))
        let inverted = try server.post("/v1/classify?invert=always", file: file)
        #expect(NSDictionary(dictionary: inverted.json) == (try cliAnswer("classify", file, ["--invert", "always"])))
    }
}
