import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An answer as it came over the wire.
package struct HTTPTestResponse {
    package let status: Int
    /// Header names lowercased.
    package let headers: [String: String]
    package let body: [UInt8]

    package var text: String { String(decoding: body, as: UTF8.self) }

    /// The body as a JSON object.
    package var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
    }
}

/// HTTP/1.1 over a plain socket, written out byte by byte: the API tests
/// need to send what a browser or curl would and also what they would not
/// (a header trickled for seconds, a body that stops halfway).
package enum HTTPTestClient {
    package struct Failure: Error, CustomStringConvertible { package let description: String }

    /// A socket connected to 127.0.0.1:port, with a receive timeout.
    package static func connect(port: UInt16, timeoutSeconds: Int = 300) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw Failure(description: "connect to port \(port): errno \(errno)")
        }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    package static func send(_ fd: Int32, _ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure(description: "send: errno \(errno)") }
            sent += n
        }
    }

    /// Everything until the server closes the connection (or the timeout).
    package static func receiveAll(_ fd: Int32) -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        return received
    }

    package static func head(_ method: String, _ path: String, headers: [String: String], bodyCount: Int) -> [UInt8] {
        var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if bodyCount > 0 || method == "POST" { text += "Content-Length: \(bodyCount)\r\n" }
        return Array((text + "\r\n").utf8)
    }

    package static func request(port: UInt16, method: String, path: String, headers: [String: String] = [:], body: [UInt8] = []) throws -> HTTPTestResponse {
        let fd = try connect(port: port)
        defer { close(fd) }
        try send(fd, head(method, path, headers: headers, bodyCount: body.count) + body)
        return try parse(receiveAll(fd))
    }

    /// The status, headers and body of a whole response (Content-Length or chunked).
    package static func parse(_ bytes: [UInt8]) throws -> HTTPTestResponse {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0...max(0, bytes.count - 4)).first(where: { Array(bytes[$0..<min($0 + 4, bytes.count)]) == separator }) else {
            throw Failure(description: "no response head in \(bytes.count) bytes: \(String(decoding: bytes, as: UTF8.self))")
        }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        guard let statusLine = lines.first, let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") else {
            throw Failure(description: "bad status line: \(lines.first ?? "")")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Array(bytes[(end + 4)...])
        if headers["transfer-encoding"] == "chunked" { body = dechunked(body) }
        return HTTPTestResponse(status: status, headers: headers, body: body)
    }

    package static func dechunked(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var position = 0
        while position < bytes.count {
            guard let lineEnd = (position..<bytes.count - 1).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 }),
                  let size = Int(String(decoding: bytes[position..<lineEnd], as: UTF8.self), radix: 16), size > 0 else { break }
            let start = lineEnd + 2
            out += bytes[start..<min(start + size, bytes.count)]
            position = start + size + 2
        }
        return out
    }

    /// A multipart/form-data body of files, and its content type.
    package static func multipart(_ files: [(name: String, bytes: [UInt8])]) -> (body: [UInt8], contentType: String) {
        let boundary = "digits-test-boundary-7MA4YWxk"
        var body: [UInt8] = []
        for file in files {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(file.name)\"\r\nContent-Type: application/octet-stream\r\n\r\n".utf8)
            body += file.bytes + Array("\r\n".utf8)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        return (body, "multipart/form-data; boundary=\(boundary)")
    }
}
