import Foundation
import Glibc
import TestSupport
import XCTest

/// The notify protocol and socket activation, against a real daemon process: a datagram socket stands in
/// for systemd's, and a small exec wrapper hands over a listening socket as fd 3.
final class SystemdIntegrationTests: XCTestCase {
    /// A datagram socket standing in for systemd's `$NOTIFY_SOCKET`, in a fresh folder.
    final class NotifyListener {
        let dir: URL
        let path: String
        let fd: Int32

        init() throws {
            dir = FileManager.default.temporaryDirectory.appendingPathComponent("pressured-sd-\(UUID().uuidString.prefix(6))")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            path = dir.appendingPathComponent("notify").path
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            var addr = sockaddr_un()
            addr.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
            let bound = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            XCTAssertEqual(bound, 0)
        }

        deinit {
            Glibc.close(fd)
            try? FileManager.default.removeItem(at: dir)
        }

        /// The next message, or nil when none comes within `timeout` seconds.
        func receive(timeout: Double = 5) -> String? {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, Int32(timeout * 1000)) > 0 else { return nil }
            var buf = [UInt8](repeating: 0, count: 4096)
            let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            return n > 0 ? String(decoding: buf[0..<n], as: UTF8.self) : nil
        }

        /// Every message for `seconds`.
        func collect(for seconds: Double) -> [String] {
            var out: [String] = []
            let end = Date().addingTimeInterval(seconds)
            while case let left = end.timeIntervalSinceNow, left > 0, let m = receive(timeout: left) { out.append(m) }
            return out
        }

        /// pressured replaying a fixture on a socket in the folder, told of this socket and `WATCHDOG_USEC`.
        func daemon(watchdogMicroseconds: Int, _ arguments: [String] = []) throws -> Process {
            let p = Process()
            p.executableURL = try Executables.url("pressured")
            p.arguments = ["--replay", "Tests/Fixtures/peek-pop.evemu", "--socket", dir.appendingPathComponent("s.sock").path]
                + arguments
            p.currentDirectoryURL = Executables.repoRoot
            p.environment = ["NOTIFY_SOCKET": path, "WATCHDOG_USEC": String(watchdogMicroseconds)]
            p.standardError = FileHandle.nullDevice
            try p.run()
            return p
        }
    }

    func testNotifyReadyStatusWatchdogReloadAndStopping() throws {
        let notify = try NotifyListener()
        let p = try notify.daemon(watchdogMicroseconds: 200_000)
        defer { if p.isRunning { p.terminate() } }
        let ready = try XCTUnwrap(notify.receive())
        XCTAssertTrue(ready.hasPrefix("READY=1\nSTATUS=serving 1 device to 0 clients"), ready)
        XCTAssertEqual(notify.receive(timeout: 1), "WATCHDOG=1")
        kill(p.processIdentifier, SIGHUP)
        var seen: [String] = []
        while seen.count < 4, let m = notify.receive(timeout: 1) { if m != "WATCHDOG=1" { seen.append(m) } ; if seen.count == 2 { break } }
        XCTAssertEqual(seen, ["RELOADING=1", "READY=1"])
        p.terminate()
        while let m = notify.receive(timeout: 2) { if m == "STOPPING=1" { seen.append(m); break } }
        XCTAssertEqual(seen.last, "STOPPING=1")
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
    }

    /// The keep-alives come from the event loop's own timer: a loop stuck in one piece of work (here a reload
    /// reading a configuration FIFO nobody writes yet, as a hung frame would be) sends none, though the
    /// process runs, so systemd's watchdog sees the hang (filter mode's promise: docs/filter.md). Once the
    /// work finishes they come again.
    func testKeepAlivesStopWhileTheLoopIsStuck() throws {
        let notify = try NotifyListener()
        let fifo = notify.dir.appendingPathComponent("pressured.conf").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        // Opening a FIFO to write waits for its reader: the daemon's start, then its reload.
        let feed: @Sendable () -> Void = {
            let fd = open(fifo, O_WRONLY)
            if fd >= 0 { _ = write(fd, "[pressured]\n", 12); Glibc.close(fd) }
        }
        Thread.detachNewThread(feed)
        let p = try notify.daemon(watchdogMicroseconds: 100_000, ["--config", fifo])  // a keep-alive every 50 ms
        defer { if p.isRunning { p.terminate() } }
        XCTAssertTrue(try XCTUnwrap(notify.receive()).hasPrefix("READY=1"))
        XCTAssertGreaterThanOrEqual(notify.collect(for: 0.3).filter { $0 == "WATCHDOG=1" }.count, 3, "turning")
        kill(p.processIdentifier, SIGHUP)
        while let m = notify.receive(timeout: 2), m != "RELOADING=1" {}
        let stuck = notify.collect(for: 0.5)
        XCTAssertEqual(stuck, [], "ten keep-alive periods with the loop stuck in the reload")
        XCTAssertTrue(p.isRunning)
        Thread.detachNewThread(feed)
        let after = notify.collect(for: 0.5)
        XCTAssertEqual(after.first, "READY=1", "\(after)")
        XCTAssertGreaterThanOrEqual(after.filter { $0 == "WATCHDOG=1" }.count, 3, "turning again: \(after)")
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

    /// Filter mode's clones come back from systemd's store after a restart as named descriptors beside the
    /// socket: one whose panel is not here is destroyed and systemd told to let go of it
    /// (`FDSTOREREMOVE=1`) before `READY=1`, and the socket is still the one served.
    func testAKeptCloneWithoutItsPanelIsLetGo() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { throw XCTSkip("needs python3") }
        let notify = try NotifyListener()
        let path = notify.dir.appendingPathComponent("activated.sock").path
        // systemd's order: the socket unit's descriptors, then the store's, each named in LISTEN_FDNAMES.
        let wrapper = """
            import os, socket, sys
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.bind(sys.argv[1]); s.listen(8)
            r, w = os.pipe()
            os.dup2(s.fileno(), 3); os.dup2(w, 4); os.set_inheritable(3, True); os.set_inheritable(4, True)
            os.environ.update(LISTEN_FDS="2", LISTEN_PID=str(os.getpid()),
                              LISTEN_FDNAMES="pressured.socket:pressured-clone-event9", NOTIFY_SOCKET=sys.argv[2])
            os.execv(sys.argv[3], sys.argv[3:])
            """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = ["-c", wrapper, path, notify.path, try Executables.url("pressured").path,
                       "--replay", "Tests/Fixtures/peek-pop.evemu", "--socket", path]
        p.currentDirectoryURL = Executables.repoRoot
        let err = notify.dir.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        p.standardError = try FileHandle(forWritingTo: err)
        try p.run()
        defer { if p.isRunning { p.terminate(); p.waitUntilExit() } }
        XCTAssertEqual(notify.receive(), "FDSTOREREMOVE=1\nFDNAME=pressured-clone-event9")
        XCTAssertEqual(notify.receive()?.hasPrefix("READY=1"), true)
        let c = try SocketClient(path: path)
        XCTAssertEqual(c.readObject()?["type"] as? String, "hello", "served on fd 3, not on the kept clone")
        let log = (try? String(contentsOf: err, encoding: .utf8)) ?? ""
        XCTAssertTrue(log.contains("pressured-clone-event9: the clone systemd kept from the last run removed"), log)
    }
}
