import XCTest

@testable import PressureWebBridge
@testable import PressureWebSocket

final class RequestRouterTests: XCTestCase {
    func head(_ path: String = "/pressured", method: String = "GET", host: String = "localhost:8765",
              origin: String? = "http://localhost:8765", upgrade: Bool = true, protocols: String? = nil) -> HTTPRequestHead {
        var fields = [HTTPRequestHead.Field(name: "Host", value: host)]
        if upgrade {
            fields += [
                .init(name: "Upgrade", value: "websocket"), .init(name: "Connection", value: "Upgrade"),
                .init(name: "Sec-WebSocket-Key", value: "dGhlIHNhbXBsZSBub25jZQ=="), .init(name: "Sec-WebSocket-Version", value: "13"),
            ]
        }
        if let origin { fields.append(.init(name: "Origin", value: origin)) }
        if let protocols { fields.append(.init(name: "Sec-WebSocket-Protocol", value: protocols)) }
        return HTTPRequestHead(method: method, target: path, version: .init(major: 1, minor: 1), fields: fields)
    }

    func router(_ configure: (inout BridgeConfiguration) -> Void = { _ in }) -> RequestRouter {
        var c = BridgeConfiguration()
        configure(&c)
        var files = StaticFiles()
        files.add(relativePath: "index.html", bytes: Array("<h1>demo</h1>".utf8))
        files.add(relativePath: "pressured.js", bytes: Array("export {}".utf8))
        return RequestRouter(configuration: c, files: files)
    }

    func status(_ d: RequestRouter.Decision) -> Int {
        switch d {
        case .respond(let r, _, _): return r.status
        case .upgrade(let r, _): return r.status
        }
    }

    func refusalLog(_ d: RequestRouter.Decision) -> String? {
        if case .respond(let r, _, let log) = d, r.status == 403 { return log }
        return nil
    }

    func testUpgradeFromTheBridgesOwnOrigin() {
        guard case .upgrade(let response, let grant) = router().decide(head(protocols: "pressured.v1")) else {
            return XCTFail("not upgraded")
        }
        XCTAssertEqual(grant, OriginGrant(origin: "http://localhost:8765", app: nil))
        XCTAssertTrue(response.fields.contains(.init(name: "Sec-WebSocket-Protocol", value: "pressured.v1")))
        XCTAssertTrue(response.fields.contains(.init(name: "Sec-WebSocket-Accept", value: "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")))
    }

    /// DNS rebinding: a page from another name resolving to 127.0.0.1 sends its own Host.
    func testHostIsChecked() {
        XCTAssertTrue(refusalLog(router().decide(head(host: "evil.example:8765")))?.contains("Host 'evil.example:8765'") ?? false)
        XCTAssertEqual(status(router().decide(head("/", host: "evil.example:8765", upgrade: false))), 403)
        XCTAssertEqual(status(router().decide(head(host: "LocalHost:8765"))), 101)
    }

    func testOriginIsChecked() {
        XCTAssertTrue(refusalLog(router().decide(head(origin: "http://evil.example")))?.contains("Origin 'http://evil.example'") ?? false)
        XCTAssertTrue(refusalLog(router().decide(head(origin: nil)))?.contains("no Origin") ?? false)
        XCTAssertEqual(status(router { $0.allowWithoutOrigin = true }.decide(head(origin: nil))), 101)
        let mapped = router { $0.origins = [OriginGrant(origin: "http://kiosk.local", app: "org.example.kiosk")] }
        guard case .upgrade(_, let grant) = mapped.decide(head(origin: "http://kiosk.local")) else { return XCTFail() }
        XCTAssertEqual(grant.app, "org.example.kiosk")
        XCTAssertEqual(status(mapped.decide(head())), 403)
    }

    func testTokenIsCheckedAndNeverEchoed() {
        let r = router { $0.token = "0123456789abcdef" }
        XCTAssertEqual(refusalLog(r.decide(head(protocols: "pressured.v1"))), "no token offered (Token is set)")
        XCTAssertTrue(refusalLog(r.decide(head(protocols: "pressured.v1, pressured-token.0123456789abcdeX")))?.contains("wrong token") ?? false)
        guard case .upgrade(let response, _) = r.decide(head(protocols: "pressured.v1, pressured-token.0123456789abcdef")) else {
            return XCTFail()
        }
        XCTAssertFalse(String(decoding: response.serialized(), as: UTF8.self).contains("0123456789abcdef"))
        XCTAssertTrue(RequestRouter.constantTimeEqual("abc", "abc"))
        XCTAssertFalse(RequestRouter.constantTimeEqual("abc", "abd"))
        XCTAssertFalse(RequestRouter.constantTimeEqual("abc", "abcd"))
    }

    func testStaticFiles() {
        let r = router()
        guard case .respond(let page, true, nil) = r.decide(head("/", upgrade: false)) else { return XCTFail() }
        XCTAssertEqual(page.status, 200)
        XCTAssertEqual(page.body, Array("<h1>demo</h1>".utf8))
        guard case .respond(let js, false, nil) = r.decide(head("/pressured.js?v=1", method: "HEAD", upgrade: false)) else { return XCTFail() }
        XCTAssertTrue(js.fields.contains(.init(name: "Content-Type", value: "text/javascript; charset=utf-8")))
        XCTAssertTrue(js.fields.contains(.init(name: "Access-Control-Allow-Origin", value: "http://localhost:8765")))
        XCTAssertEqual(status(r.decide(head("/../etc/passwd", upgrade: false))), 404)
        XCTAssertEqual(status(r.decide(head("/pressured", upgrade: false))), 426)
        XCTAssertEqual(status(r.decide(head("/", method: "POST", upgrade: false))), 405)
        XCTAssertEqual(status(r.decide(head("/elsewhere"))), 404)
    }

    func testStaticFilePaths() {
        var f = StaticFiles()
        XCTAssertTrue(f.add(relativePath: "demo/app.js", bytes: []))
        XCTAssertFalse(f.add(relativePath: "../x", bytes: []))
        XCTAssertFalse(f.add(relativePath: ".hidden", bytes: []))
        XCTAssertFalse(f.add(relativePath: "a//b", bytes: []))
        XCTAssertFalse(f.add(relativePath: "sp ace.html", bytes: []))
        XCTAssertNotNil(f.file(at: "/demo/app.js"))
        XCTAssertEqual(StaticFiles.contentType("x.d.ts"), "text/plain; charset=utf-8")
    }
}
