import Foundation
import Glibc

/// A plain blocking Unix-socket client speaking JSON lines, independent of the client library (so tests see
/// the daemon's own bytes), with timeouts so a test never hangs.
public final class SocketClient {
    public let fd: Int32
    var buffer: [UInt8] = []
    private var closed = false

    public init(path: String) throws {
        // Close-on-exec: a daemon a test starts later must not inherit it (tests count its descriptors).
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let r = UnixSocketAddress.with(path) { connect(fd, $0, $1) }
        guard r == 0 else {
            let e = errno
            Glibc.close(fd)
            throw CannotConnect(path: path, errno: e)
        }
    }

    public func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(fd)
    }

    deinit { close() }

    public func send(_ text: String) { sendRaw(Array(text.utf8)) }

    public func sendRaw(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// The next line, or nil at end of stream or after `timeout` seconds without one.
    public func readLine(timeout: Double = 5) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let nl = buffer.firstIndex(of: 0x0a) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                return line
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0, fill(timeout: left) else { return nil }
        }
    }

    /// The next line as a JSON object.
    public func readObject(timeout: Double = 5) -> [String: Any]? {
        guard let line = readLine(timeout: timeout) else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    /// Every line until the daemon closes the connection (or `timeout` seconds pass without one).
    public func readAll(timeout: Double = 30) -> [String] {
        var lines: [String] = []
        while let l = readLine(timeout: timeout) { lines.append(l) }
        return lines
    }

    /// Every byte until the daemon closes the connection (or `timeout` seconds pass without one), as text.
    public func readText(timeout: Double = 30) -> String {
        while fill(timeout: timeout) {}
        defer { buffer.removeAll() }
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Appends what arrives within `timeout` seconds to the buffer; false at end of stream or timeout.
    private func fill(timeout: Double) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, Int32(timeout * 1000) + 1) > 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return false }
        buffer += chunk[0..<n]
        return true
    }

    public struct CannotConnect: Error, CustomStringConvertible {
        public var path: String
        public var errno: Int32
        public var description: String { "connect \(path): \(String(cString: strerror(errno)))" }
    }
}
