@_spi(Fuzzing) import DigitServer
import Foundation
import Testing
import TestSupport

/// The server's own parsers of what a request carries: multipart bodies and
/// raw GRAY frames, on well-formed and hostile bytes. Bad bytes are one
/// error each; nothing is allocated by what a header claims.
@Suite("digits serve request parsing")
struct RequestParsingTests {
    func body(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test("a multipart body's parts, with filenames and types, in order")
    func wellFormed() throws {
        let bytes = body("preamble\r\n--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.png\"\r\nContent-Type: image/png\r\n\r\nAAA\r\n--XyZ\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\n\r\n--XyZ--\r\nepilogue")
        let form = try MultipartFormData(body: bytes, boundary: "XyZ", maxParts: 8)
        #expect(form.parts == [.init(filename: "a.png", contentType: "image/png", bytes: body("AAA")), .init(filename: nil, contentType: nil, bytes: [])])
    }

    @Test("boundaries: quoted, too long, with characters that RFC 2046 leaves out")
    func boundaries() {
        #expect(MultipartFormData.boundary(ofContentType: "multipart/form-data; boundary=abc") == "abc")
        #expect(MultipartFormData.boundary(ofContentType: "multipart/form-data; charset=utf-8; Boundary=\"a b:c\"") == "a b:c")
        #expect(MultipartFormData.boundary(ofContentType: "multipart/form-data") == nil)
        #expect(MultipartFormData.boundary(ofContentType: "multipart/form-data; boundary=") == nil)
        #expect(MultipartFormData.boundary(ofContentType: "multipart/form-data; boundary=" + String(repeating: "a", count: 71)) == nil)
        #expect(MultipartFormData.boundary(ofContentType: "multipart/form-data; boundary=a\rb") == nil)
    }

    @Test("hostile bodies are one error each, naming what is wrong", arguments: [
        ("", "no boundary line"),
        ("--B", "ends inside a boundary line"),
        ("--B\r\nContent-Type: x\r\n", "no end to its headers"),
        ("--B\r\n\r\nbytes without an end", "ends before its closing boundary"),
        ("--B--\r\n", "holds no part"),
        (String(repeating: "--B\r\n\r\nx\r\n", count: 5) + "--B--", "more than 4 parts"),
    ])
    func hostile(text: String, expected: String) {
        #expect {
            _ = try MultipartFormData(body: body(text), boundary: "B", maxParts: 4)
        } throws: { error in
            ((error as? APIError)?.message.contains(expected) ?? false) && (error as? APIError)?.code == "bad_request"
        }
    }

    @Test("finding the boundary stays linear on a body of near-misses")
    func nearMisses() throws {
        // 4 MB of "\r\n--" prefixes that never become the boundary.
        let nearMiss = body("\r\n--") + Array(repeating: UInt8(ascii: "b"), count: 69) + body("X")
        let noise = Array(Array(repeating: nearMiss, count: 55_000).joined())
        let bytes = body("--") + Array(repeating: UInt8(ascii: "b"), count: 70) + body("\r\n\r\n") + noise
            + body("\r\n--") + Array(repeating: UInt8(ascii: "b"), count: 70) + body("--")
        let started = Date()
        let form = try MultipartFormData(body: bytes, boundary: String(repeating: "b", count: 70), maxParts: 4)
        #expect(form.parts.count == 1 && form.parts[0].bytes.count == noise.count)
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test("raw GRAY frames: the size must match the header; a header's claim allocates nothing")
    func rawFrames() throws {
        let image = try RawGrayFrame.image(body("GRAY") + [2, 0, 1, 0, 10, 250])
        #expect(image.width == 2 && image.height == 1 && image.pixels == [10, 250])
        #expect(RawGrayFrame.isRaw(body("GRAY")) && !RawGrayFrame.isRaw(body("GRA")) && !RawGrayFrame.isRaw([0x89, 0x50, 0x4E, 0x47]))
        let cases: [([UInt8], String)] = [
            (body("GRAY") + [1, 0], "needs an 8-byte header"),
            (body("GRAY") + [0, 0, 5, 0], "0x5 pixels holds no picture"),
            (body("GRAY") + [255, 255, 255, 255, 1, 2, 3], "65535x65535 needs 4294836225 pixel bytes, got 3"),
            (body("GRAY") + [2, 0, 2, 0, 1, 2, 3, 4, 5], "needs 4 pixel bytes, got 5"),
        ]
        for (bytes, expected) in cases {
            #expect(performing: { _ = try RawGrayFrame.image(bytes) }, throws: { "\($0)".contains(expected) })
        }
    }

    @Test("the bearer token comparison looks at every byte", arguments: [("abc", "abc", true), ("abd", "abc", false), ("ab", "abc", false), ("abcd", "abc", false), ("", "abc", false)])
    func tokens(given: String, expected: String, equal: Bool) {
        #expect(BearerTokenMiddlewareCheck.equal(given, expected) == equal)
    }
}
