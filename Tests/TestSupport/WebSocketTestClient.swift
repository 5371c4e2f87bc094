import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A WebSocket client of RFC 6455's plainest form for the stream tests:
/// the upgrade, masked binary messages out, unfragmented text messages in.
package final class WebSocketTestClient {
    package struct Failure: Error, CustomStringConvertible { package let description: String }

    private let fd: Int32
    private var pending: [UInt8] = []

    /// Connects and upgrades; throws with the server's answer when it refuses.
    package init(port: UInt16, path: String, headers: [String: String] = [:]) throws {
        fd = try HTTPTestClient.connect(port: port)
        var text = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        try HTTPTestClient.send(fd, Array((text + "\r\n").utf8))
        let head = try readHead()
        guard head.hasPrefix("HTTP/1.1 101") else {
            close(fd)
            throw Failure(description: "no upgrade: \(head)")
        }
    }

    deinit { close(fd) }

    /// Sends one binary message.
    package func sendBinary(_ payload: [UInt8]) throws {
        try HTTPTestClient.send(fd, Self.frame(opcode: 0x2, payload))
    }

    /// Sends a close frame.
    package func sendClose() throws {
        try HTTPTestClient.send(fd, Self.frame(opcode: 0x8, [0x03, 0xE8]))
    }

    /// The next text message, skipping pings; nil when the connection closes.
    package func nextText() throws -> String? {
        while true {
            guard let (opcode, payload) = try nextFrame() else { return nil }
            switch opcode {
            case 0x1: return String(decoding: payload, as: UTF8.self)
            case 0x8: return nil
            default: continue
            }
        }
    }

    private func nextFrame() throws -> (UInt8, [UInt8])? {
        guard let header = try read(2) else { return nil }
        let opcode = header[0] & 0x0F
        var length = Int(header[1] & 0x7F)
        if length == 126 {
            guard let extended = try read(2) else { return nil }
            length = Int(extended[0]) << 8 | Int(extended[1])
        } else if length == 127 {
            guard let extended = try read(8) else { return nil }
            length = extended.reduce(0) { $0 << 8 | Int($1) }
        }
        guard let payload = try read(length) else { return nil }
        return (opcode, payload)
    }

    private func read(_ count: Int) throws -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while pending.count < count {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { return nil }
            guard n > 0 else { throw Failure(description: "recv: errno \(errno)") }
            pending += buffer[0..<n]
        }
        defer { pending.removeFirst(count) }
        return Array(pending[0..<count])
    }

    private func readHead() throws -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if let end = (0..<max(0, pending.count - 3)).first(where: { pending[$0..<$0 + 4].elementsEqual([13, 10, 13, 10]) }) {
                let head = String(decoding: pending[..<end], as: UTF8.self)
                pending.removeFirst(end + 4)
                return head
            }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { return String(decoding: pending, as: UTF8.self) }
            pending += buffer[0..<n]
        }
    }

    /// A client frame: FIN, the opcode, a mask (all zero bytes here: the
    /// protocol asks for a mask, not a secret one) and the payload.
    private static func frame(opcode: UInt8, _ payload: [UInt8]) -> [UInt8] {
        var frame: [UInt8] = [0x80 | opcode]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            frame.append(0x80 | 127)
            frame += (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        return frame + [0, 0, 0, 0] + payload
    }
}
