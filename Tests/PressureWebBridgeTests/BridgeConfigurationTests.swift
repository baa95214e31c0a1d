import XCTest

@testable import PressureWebBridge

final class BridgeConfigurationTests: XCTestCase {
    func parse(_ text: String) throws(BridgeConfigurationError) -> BridgeConfiguration {
        try BridgeConfigurationParser.parse(text, file: "web.conf")
    }

    func error(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> BridgeConfigurationError? {
        do {
            _ = try parse(text)
            XCTFail("parsed", file: file, line: line)
            return nil
        } catch { return error }
    }

    func testDefaults() throws {
        let c = try parse("")
        XCTAssertEqual(c.listen, [ListenAddress(host: "127.0.0.1", port: 8765)])
        XCTAssertEqual(c.acceptedHosts, ["localhost:8765", "127.0.0.1:8765", "[::1]:8765"])
        XCTAssertEqual(c.grant(forOrigin: "http://localhost:8765"), OriginGrant(origin: "http://localhost:8765", app: nil))
        XCTAssertEqual(c.grant(forOrigin: "HTTP://127.0.0.1:8765")?.app, nil)
        XCTAssertNil(c.grant(forOrigin: "http://evil.example"))
        XCTAssertNil(c.grant(forOrigin: "null"))
        XCTAssertEqual(c.grant(forOrigin: "http://localhost:8765")?.mayControl, false, "the bridge's own origin: no control")
        XCTAssertNil(c.token)
    }

    func testFullFile() throws {
        let c = try parse("""
            # the kiosk
            [web]
            Listen = 127.0.0.1:9000 [::1]:9000
            Socket = /tmp/p.sock   # a test daemon
            Host = kiosk.local:9000 LOCALHOST:9000
            Token = 0123456789abcdef-token
            AllowWithoutOrigin = on
            MaximumMessage = 2048
            QueueBytes = 65536
            PingInterval = 5
            Root = none

            [origin http://localhost:9000]
            App = org.example.kiosk

            [origin https://Apps.Example]

            [origin http://settings.local:9000]
            Control = yes
            """)
        XCTAssertEqual(c.listen, [ListenAddress(host: "127.0.0.1", port: 9000), ListenAddress(host: "::1", port: 9000)])
        XCTAssertEqual(c.listen[1].description, "[::1]:9000")
        XCTAssertEqual(c.daemonSocket, "/tmp/p.sock")
        XCTAssertEqual(c.acceptedHosts, ["kiosk.local:9000", "localhost:9000"])
        XCTAssertEqual(c.token, "0123456789abcdef-token")
        XCTAssertTrue(c.allowWithoutOrigin)
        XCTAssertEqual([c.maximumMessage, c.queueCapacity, c.pingIntervalSeconds], [2048, 65536, 5])
        XCTAssertNil(c.root)
        XCTAssertEqual(c.grant(forOrigin: "http://localhost:9000")?.app, "org.example.kiosk")
        XCTAssertEqual(c.grant(forOrigin: "https://apps.example"), OriginGrant(origin: "https://apps.example", app: nil))
        // Control is per origin, off unless its section says so.
        XCTAssertEqual(c.origins.map(\.mayControl), [false, false, true])
        XCTAssertEqual(c.grant(forOrigin: "http://settings.local:9000"),
                       OriginGrant(origin: "http://settings.local:9000", app: nil, mayControl: true))
        // With origins configured, the bridge's own origin is no longer implied.
        XCTAssertNil(c.grant(forOrigin: "http://127.0.0.1:9000"))
    }

    func testErrorsNameTheLine() {
        let cases: [(String, Int, String)] = [
            ("Listen = 1.2.3.4:5", 1, "outside any section"),
            ("[web]\nListen = localhost:80", 2, "expected addresses"),
            ("[web]\nListen = 127.0.0.1:0", 2, "expected addresses"),
            ("[web]\nlisten = 127.0.0.1:80", 2, "unknown key listen"),
            ("[web]\nToken = short", 2, "at least 16"),
            ("[web]\nToken = has space in it 123456", 2, "at least 16"),
            ("[origin http://a]\nControl = maybe", 2, "expected on or off"),
            ("[web]\nAllowControl = on", 2, "Control = on in its [origin ORIGIN] section"),
            ("[web]\nControl = on", 2, "control is granted per origin"),
            ("[web]\nMaximumMessage = 10", 2, "from 1024"),
            ("[web]\nSocket = relative.sock", 2, "absolute path"),
            ("[web]\nRoot = /a\nRoot = /b", 3, "given twice in one section (first on line 2)"),
            ("[web\n", 1, "no closing"),
            ("[other]", 1, "unknown section"),
            ("[origin http://a/path]", 1, "not an origin"),
            ("[origin http://a]\n[origin http://A]", 2, "given twice"),
            ("[origin http://a]\nApp = has space", 2, "expected an app id"),
            ("[origin http://a]\nHost = x", 2, "unknown key Host"),
            ("[web]\njust words", 2, "expected 'Key = value'"),
        ]
        for (text, line, fragment) in cases {
            guard let e = error(text) else { continue }
            XCTAssertEqual(e.line, line, text)
            XCTAssertTrue(e.description.hasPrefix("web.conf:\(line): "), e.description)
            XCTAssertTrue(e.message.contains(fragment), "\(e.message) lacks \(fragment)")
        }
    }

    func testListenAddressParsing() {
        XCTAssertEqual(ListenAddress(parsing: "[::]:80"), ListenAddress(host: "::", port: 80))
        XCTAssertEqual(ListenAddress(parsing: "0.0.0.0:65535"), ListenAddress(host: "0.0.0.0", port: 65535))
        for bad in ["::1:80", "127.0.0.1", "127.0.0.1:65536", "[::1]80", ":80", "host:80"] {
            XCTAssertNil(ListenAddress(parsing: bad), bad)
        }
    }
}
