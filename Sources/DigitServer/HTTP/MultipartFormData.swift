import Foundation

/// A `multipart/form-data` body (RFC 7578) split into its parts: each part's
/// headers (only `Content-Disposition`'s `filename` and `Content-Type` are
/// kept) and its bytes. Everything is bounded by the body already in memory;
/// a malformed body is a 400 naming what is wrong.
@_spi(Fuzzing) public struct MultipartFormData: Equatable, Sendable {
    public struct Part: Equatable, Sendable {
        public var filename: String?
        public var contentType: String?
        public var bytes: [UInt8]

        public init(filename: String?, contentType: String?, bytes: [UInt8]) {
            self.filename = filename
            self.contentType = contentType
            self.bytes = bytes
        }
    }

    public var parts: [Part]

    /// The boundary of a `multipart/form-data; boundary=...` content type,
    /// unquoted; nil when there is none or it is not 1-70 of RFC 2046's
    /// characters (no CR or LF, so that finding it stays linear in the body).
    public static func boundary(ofContentType type: String) -> String? {
        for parameter in type.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            var value = pair[1]
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            let allowed = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=? ".utf8)
            return (1...70).contains(value.utf8.count) && value.utf8.allSatisfy(allowed.contains) ? value : nil
        }
        return nil
    }

    /// The parts of `body`, at most `maxParts` of them.
    public init(body: [UInt8], boundary: String, maxParts: Int) throws(APIError) {
        let delimiter = Array("--\(boundary)".utf8)
        // The first delimiter starts the body or a line: searched with its CR LF
        // (which the boundary cannot hold), so the search cannot overlap itself.
        let first = body.starts(with: delimiter) ? 0 : Self.find(Self.crlf + delimiter, in: body, from: 0).map { $0 + 2 }
        guard var position = first else {
            throw .badRequest("the multipart body has no boundary line --\(boundary)")
        }
        var parts: [Part] = []
        while true {
            position += delimiter.count
            // "--" after a delimiter closes the body.
            if body.count >= position + 2, body[position] == UInt8(ascii: "-"), body[position + 1] == UInt8(ascii: "-") { break }
            guard let lineEnd = Self.find(Self.crlf, in: body, from: position) else {
                throw .badRequest("the multipart body ends inside a boundary line")
            }
            let headersStart = lineEnd + 2
            // From the boundary line's own CR LF: a part without headers has
            // its blank line right after it.
            guard let headersEnd = Self.find(Self.crlf + Self.crlf, in: body, from: lineEnd) else {
                throw .badRequest("a part of the multipart body has no end to its headers")
            }
            let contentStart = headersEnd + 4
            guard let next = Self.find(Self.crlf + delimiter, in: body, from: contentStart) else {
                throw .badRequest("the multipart body ends before its closing boundary --\(boundary)--")
            }
            guard parts.count < maxParts else {
                throw .badRequest("the multipart body holds more than \(maxParts) parts")
            }
            var part = Part(filename: nil, contentType: nil, bytes: Array(body[contentStart..<next]))
            Self.readHeaders(body[headersStart..<max(headersStart, headersEnd)], into: &part)
            parts.append(part)
            position = next + 2
        }
        guard !parts.isEmpty else { throw .badRequest("the multipart body holds no part") }
        self.parts = parts
    }

    private static let crlf: [UInt8] = [13, 10]

    private static func readHeaders(_ bytes: ArraySlice<UInt8>, into part: inout Part) {
        let text = String(decoding: bytes, as: UTF8.self)
        for line in text.split(separator: "\r\n") {
            let pair = line.split(separator: ":", maxSplits: 1)
            guard pair.count == 2 else { continue }
            let name = pair[0].trimmingCharacters(in: .whitespaces).lowercased()
            let value = pair[1].trimmingCharacters(in: .whitespaces)
            if name == "content-type" { part.contentType = value }
            if name == "content-disposition" { part.filename = filename(inDisposition: value) }
        }
    }

    /// `filename="a.png"` of a Content-Disposition value.
    private static func filename(inDisposition value: String) -> String? {
        for parameter in value.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == "filename" else { continue }
            var name = pair[1]
            if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") { name = String(name.dropFirst().dropLast()) }
            return name
        }
        return nil
    }

    /// The first index of `needle` in `haystack` at or after `start`.
    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, start >= 0, haystack.count - start >= needle.count else { return nil }
        let first = needle[0]
        var index = start
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first {
                var matched = 1
                while matched < needle.count, haystack[index + matched] == needle[matched] { matched += 1 }
                if matched == needle.count { return index }
            }
            index += 1
        }
        return nil
    }
}
