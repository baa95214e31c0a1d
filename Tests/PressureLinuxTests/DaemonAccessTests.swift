import Foundation
import Glibc
import TestSupport
import XCTest

/// Who may do what, through the whole daemon: the identity is what the kernel vouches for at accept
/// (`SO_PEERCRED`, `SO_PEERGROUPS`), so the peers here are real processes run as other users and groups
/// (`setpriv`), not claims.
final class DaemonAccessTests: XCTestCase {
    /// A Python client that sends each request line (each with an `id`) and prints the daemon's answer to
    /// each (events in between skipped), one line per request.
    static let client = """
        import json, socket, sys
        s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); f = s.makefile("rwb")
        f.readline()
        for line in sys.argv[2:]:
            sent = json.loads(line)
            f.write(line.encode() + b"\\n"); f.flush()
            while True:
                got = json.loads(f.readline())
                if got.get("type") in ("reply", "error") and got.get("id") == sent["id"]:
                    print(json.dumps(got)); break
        """

    func testTheKernelsIdentityDecidesWhoMayBeAnAppChooseForItAndControl() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
            FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), getpwnam("nobody") != nil
        else {
            throw XCTSkip("needs root, setpriv, /usr/bin/python3 and a user nobody to act as other users")
        }
        let conf = FileManager.default.temporaryDirectory.appendingPathComponent("pressured-\(UUID().uuidString).conf")
        defer { try? FileManager.default.removeItem(at: conf) }
        // The app's user by name (the daemon resolves it), the control group by number: one no one has
        // but the peer given it as a supplementary group.
        try "[pressured]\nControlGroup = 4242\n\n[app org.example.mail]\nUser = nobody\n"
            .write(to: conf, atomically: true, encoding: .utf8)
        let d = try DaemonProcess(["--replay", "Tests/Fixtures/no-pressure.evemu", "--config", conf.path])
        chmod(d.dir.path, 0o755)
        chmod(d.socketPath, 0o666)  // anyone may connect: what follows is decided by identity alone

        func answers(_ ids: [String], _ requests: [String]) throws -> [String] {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            p.arguments = ids + ["/usr/bin/python3", "-c", Self.client, d.socketPath] + requests
            let out = Pipe()
            p.standardOutput = out
            try p.run()
            p.waitUntilExit()
            return String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                .split(separator: "\n").map(String.init)
        }
        let requests = [
            #"{"request":"subscribe","id":1,"app":"org.example.mail"}"#,
            #"{"request":"chooseAction","id":2,"app":"org.example.mail","action":"compose"}"#,
            #"{"request":"set","id":3,"sensitivity":"firm"}"#,
            #"{"request":"subscribe","id":4,"app":"org.example.open"}"#,
        ]
        func outcome(_ line: String) -> String {
            line.contains(#""error": "not-permitted""#) ? "refused" : line.contains(#""type": "reply""#) ? "ok" : line
        }
        let nobody = try answers(["--reuid", "65534", "--regid", "65534", "--clear-groups"], requests)
        XCTAssertEqual(nobody.map(outcome), ["ok", "ok", "refused", "ok"], "\(nobody)\n\(d.log)")
        let stranger = try answers(["--reuid", "1", "--regid", "1", "--clear-groups"], requests)
        XCTAssertEqual(stranger.map(outcome), ["refused", "refused", "refused", "ok"], "\(stranger)\n\(d.log)")
        XCTAssertTrue(stranger.first?.contains("this connection is uid 1 gid 1") ?? false, "\(stranger)")
        // A supplementary group the kernel reports (SO_PEERGROUPS) makes the same user a controller.
        let admin = try answers(["--reuid", "1", "--regid", "1", "--groups", "4242"], requests)
        XCTAssertEqual(admin.map(outcome), ["refused", "refused", "ok", "ok"], "\(admin)\n\(d.log)")
        XCTAssertTrue(d.log.contains("connected: uid 1 gid 1 groups 4242 (may control)"), d.log)
    }

    /// A name the system does not know stops the daemon at start, naming the file and line.
    func testAnUnknownUserIsAConfigurationError() throws {
        let conf = FileManager.default.temporaryDirectory.appendingPathComponent("pressured-\(UUID().uuidString).conf")
        defer { try? FileManager.default.removeItem(at: conf) }
        try "[app org.example.mail]\nUser = no-such-user-here\n".write(to: conf, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try DaemonProcess(["--replay", "Tests/Fixtures/no-pressure.evemu", "--config", conf.path])) { e in
            XCTAssertTrue("\(e)".contains("\(conf.path):2: User names the user 'no-such-user-here'"), "\(e)")
        }
    }
}
