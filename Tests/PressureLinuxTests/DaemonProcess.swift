import Foundation
import Glibc
import XCTest

/// A real `pressured` process on a temporary socket, and real clients of it, for protocol tests.
final class DaemonProcess {
    let process = Process()
    let socketPath: String
    let dir: URL
    let stderrURL: URL

    /// Starts `pressured` with `arguments` plus `--socket` in a fresh temporary folder and waits until
    /// the socket accepts connections.
    init(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("pressured-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        socketPath = dir.appendingPathComponent("s.sock").path
        stderrURL = dir.appendingPathComponent("stderr.log")
        FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        process.executableURL = try Executables.url("pressured")
        process.arguments = arguments + ["--socket", socketPath]
        process.currentDirectoryURL = Executables.repoRoot
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let c = try? SocketClient(path: socketPath) {
                c.close()
                return
            }
            if !process.isRunning { break }
            usleep(20_000)
        }
        throw NSError(domain: "pressured", code: 1, userInfo: [NSLocalizedDescriptionKey: "daemon did not start: \(log)"])
    }

    var log: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    func signal(_ s: Int32) { kill(process.processIdentifier, s) }

    /// Waits for exit (or kills after `seconds`) and returns the status.
    @discardableResult
    func wait(seconds: Double = 10) -> Int32 {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: dir)
    }
}

/// A blocking Unix-socket client speaking JSON lines, with timeouts so a test never hangs.
final class SocketClient {
    let fd: Int32
    var buffer: [UInt8] = []

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = b }
        }
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard r == 0 else {
            Glibc.close(fd)
            throw NSError(domain: "connect", code: Int(errno))
        }
    }

    func close() { Glibc.close(fd) }
    deinit { Glibc.close(fd) }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    func sendRaw(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// The next line, or nil at end of stream or after `timeout` seconds without one.
    func readLine(timeout: Double = 5) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let nl = buffer.firstIndex(of: 0x0a) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                return line
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, Int32(left * 1000) + 1) > 0 else { return nil }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return nil }
            buffer += chunk[0..<n]
        }
    }

    /// The next line as a JSON object.
    func readObject(timeout: Double = 5) -> [String: Any]? {
        guard let line = readLine(timeout: timeout) else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    /// Every line until the daemon closes the connection.
    func readAll(timeout: Double = 30) -> [String] {
        var lines: [String] = []
        while let l = readLine(timeout: timeout) { lines.append(l) }
        return lines
    }
}
