import Foundation
import Glibc
import TestSupport
import XCTest

/// The notify protocol and socket activation, against a real daemon process: a datagram socket stands in
/// for systemd's, and a small exec wrapper hands over a listening socket as fd 3.
final class SystemdIntegrationTests: XCTestCase {
    func testNotifyReadyStatusWatchdogReloadAndStopping() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pressured-sd-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let notifyPath = dir.appendingPathComponent("notify").path
        let listener = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { Glibc.close(listener) }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in notifyPath.utf8.enumerated() { raw[i] = b } }
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(bound, 0)
        func receive(timeout: Double = 5) -> String? {
            var p = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, Int32(timeout * 1000)) > 0 else { return nil }
            var buf = [UInt8](repeating: 0, count: 4096)
            let n = buf.withUnsafeMutableBytes { recv(listener, $0.baseAddress, $0.count, 0) }
            return n > 0 ? String(decoding: buf[0..<n], as: UTF8.self) : nil
        }
        let p = Process()
        p.executableURL = try Executables.url("pressured")
        p.arguments = ["--replay", "Tests/Fixtures/peek-pop.evemu", "--socket", dir.appendingPathComponent("s.sock").path]
        p.currentDirectoryURL = Executables.repoRoot
        p.environment = ["NOTIFY_SOCKET": notifyPath, "WATCHDOG_USEC": "200000"]
        p.standardError = FileHandle.nullDevice
        try p.run()
        defer { if p.isRunning { p.terminate() } }
        let ready = try XCTUnwrap(receive())
        XCTAssertTrue(ready.hasPrefix("READY=1\nSTATUS=serving 1 device to 0 clients"), ready)
        XCTAssertEqual(receive(timeout: 1), "WATCHDOG=1")
        kill(p.processIdentifier, SIGHUP)
        var seen: [String] = []
        while seen.count < 4, let m = receive(timeout: 1) { if m != "WATCHDOG=1" { seen.append(m) } ; if seen.count == 2 { break } }
        XCTAssertEqual(seen, ["RELOADING=1", "READY=1"])
        p.terminate()
        while let m = receive(timeout: 2) { if m == "STOPPING=1" { seen.append(m); break } }
        XCTAssertEqual(seen.last, "STOPPING=1")
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
    }

    func testSocketActivationUsesTheInheritedSocket() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { throw XCTSkip("needs python3") }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pressured-act-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("activated.sock").path
        // What systemd does for a .socket unit: bind and listen, then exec the service with the socket
        // as fd 3, LISTEN_FDS=1 and LISTEN_PID set to the service's own pid.
        let wrapper = """
            import os, socket, sys
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.bind(sys.argv[1]); s.listen(8)
            os.dup2(s.fileno(), 3); os.set_inheritable(3, True)
            os.environ.update(LISTEN_FDS="1", LISTEN_PID=str(os.getpid()))
            os.execv(sys.argv[2], sys.argv[2:])
            """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = ["-c", wrapper, path, try Executables.url("pressured").path,
                       "--replay", "Tests/Fixtures/peek-pop.evemu", "--socket", path]
        p.currentDirectoryURL = Executables.repoRoot
        let err = dir.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        p.standardError = try FileHandle(forWritingTo: err)
        try p.run()
        defer { if p.isRunning { p.terminate(); p.waitUntilExit() } }
        var client: SocketClient? = nil
        Wait.until { client = try? SocketClient(path: path); return client != nil }
        let c = try XCTUnwrap(client)
        XCTAssertEqual(c.readObject()?["type"] as? String, "hello")
        p.terminate()
        p.waitUntilExit()
        // An inherited socket's file belongs to systemd: the daemon leaves it in place.
        XCTAssertTrue(FileManager.default.fileExists(atPath: path), (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }
}
