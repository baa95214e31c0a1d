import DeviceTestSupport
@testable import PressureCore
@testable import PressureHub
import XCTest

/// Regions and quick actions in the hub: who gets a touch's gestures, what icons show, where choices go.
final class HubRegionTests: XCTestCase {
    var hub = Hub(configuration: Configuration())
    var device = 0

    override func setUpWithError() throws {
        let config = try TestDevices.configuration("""
            [app org.example.mail]
            QuickAction1 = compose | New Message | | compose
            QuickAction2 = inbox | Inbox | 3 unread
            """)
        hub = Hub(configuration: config)
        device = try XCTUnwrap(hub.addDevice(node: "n", description: TestDevices.slotted))
    }

    func send(_ c: Int, _ json: String, now: Int64 = 0) {
        hub.receive(client: c, line: Array(json.utf8)[...], now: Timestamp(microseconds: now))
    }

    func lines(_ c: Int) -> [String] {
        var bytes: [UInt8] = []
        hub.drain(client: c) { b in
            bytes += b
            return b.count
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    func client(_ subscribe: String = #"{"request":"subscribe"}"#) -> Int {
        let c = hub.connect(mayControl: false)
        send(c, subscribe)
        _ = lines(c)
        return c
    }

    /// A press at (x, y) that peeks, pops if `hard`, then lifts.
    func press(_ x: Int32, _ y: Int32, hard: Bool = false, id: Int32 = 1) {
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: id, x: x, y: y, p: 100) }
        s.frame(at: 10) { $0.slot(0, p: 400) }
        if hard { s.frame(at: 20) { $0.slot(0, p: 900) } }
        s.frame(at: 30) { $0.slot(0, id: -1) }
        hub.handle(device: device, events: s.events[...])
    }

    /// The messages about a contact, as `type` or `type@region`, read with the protocol's JSON parser; a
    /// line that is not a JSON object shows as itself, so the comparison fails with it in view.
    func gestures(_ lines: [String]) -> [String] {
        lines.compactMap { l in
            guard let v = try? JSONParser.parse(l), v.objectMembers != nil else { return "not a message: \(l)" }
            guard v["contact"] != nil else { return nil }
            let type = v["type"]?.stringValue ?? "untyped"
            return v["region"]?.stringValue.map { "\(type)@\($0)" } ?? type
        }
    }

    func testOverlappingRegionsTheTopmostOwnerGetsTheTouch() {
        let launcher = client()
        let app = client()
        let bystander = client()
        send(launcher, #"{"request":"setRegion","id":1,"region":"grid","x":0,"y":0,"width":4000,"height":4000}"#)
        send(app, #"{"request":"setRegion","id":2,"region":"card","x":1000,"y":1000,"width":500,"height":500,"z":2}"#)
        // `cut` is always there, empty when nothing was cut.
        XCTAssertEqual(lines(launcher), [#"{"type":"reply","id":1,"request":"setRegion","region":"grid","items":[],"cut":[]}"#])
        _ = lines(app)
        press(1200, 1200, hard: true)
        XCTAssertEqual(gestures(lines(app)), ["peek@card", "pop@card"])
        XCTAssertEqual(gestures(lines(launcher)), [])
        XCTAssertEqual(gestures(lines(bystander)), [], "owned touches are not broadcast")
        press(100, 100, id: 2)
        XCTAssertEqual(gestures(lines(launcher)), ["peek@grid", "dismiss@grid"])
        press(4090, 4090, id: 3)  // outside every region: broadcast as before
        for c in [launcher, app, bystander] { XCTAssertEqual(gestures(lines(c)), ["peek", "dismiss"]) }
    }

    func testATouchKeepsItsOwnerWhenRegionsChangeMidPress() {
        let a = client()
        send(a, #"{"request":"setRegion","region":"r","x":0,"y":0,"width":4096,"height":4096}"#)
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 10, y: 10, p: 50) }
        hub.handle(device: device, events: s.events[...])
        send(a, #"{"request":"removeRegion","region":"r"}"#)
        s.events.removeAll()
        s.frame(at: 10) { $0.slot(0, p: 400) }
        s.frame(at: 20) { $0.slot(0, id: -1) }
        hub.handle(device: device, events: s.events[...])
        XCTAssertEqual(gestures(lines(a)), ["peek@r", "dismiss@r"])
    }

    func testARegionThatWantsNoPreviewsGetsNoPeekButItsLongPress() {
        let a = client()
        send(a, #"{"request":"setRegion","region":"button","x":0,"y":0,"width":4096,"height":4096,"wants":["longPress"]}"#)
        _ = lines(a)
        press(10, 10, hard: true)
        XCTAssertEqual(gestures(lines(a)), [], "not a peek there, and not broadcast")
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 9, x: 10, y: 10, p: 20) }
        hub.handle(device: device, events: s.events[...])
        hub.tick(now: Timestamp(microseconds: 600_000))
        XCTAssertEqual(gestures(lines(a)), ["longPress@button"])
    }

    func testAnIconShowsStaticThenDynamicQuickActionsFourAtMost() throws {
        let launcher = client()
        let mail = client(#"{"request":"subscribe","app":"org.example.mail"}"#)
        send(mail, #"{"request":"setQuickActions","id":7,"items":[{"id":"a","title":"A"},{"id":"b","title":"B"},{"id":"c","title":"C"}]}"#)
        let reply = try XCTUnwrap(lines(mail).first)
        XCTAssertTrue(reply.contains(#""items":["compose","inbox","a","b"],"cut":["c"]"#), reply)
        send(launcher, #"{"request":"setRegion","region":"mail-icon","x":0,"y":0,"width":200,"height":200,"wants":["quickActions"],"app":"org.example.mail"}"#)
        _ = lines(launcher)
        press(100, 100, hard: true)
        let got = lines(launcher)
        XCTAssertEqual(gestures(got), ["quickActions@mail-icon"], "the menu replaces peek, pop and dismiss")
        XCTAssertTrue(got[0].contains(#""app":"org.example.mail","items":[{"id":"compose","title":"New Message","icon":"compose"},{"id":"inbox","title":"Inbox","subtitle":"3 unread"},{"id":"a","title":"A"},{"id":"b","title":"B"}]"#), got[0])
        XCTAssertTrue(got[0].contains(#""x":100,"y":100,"screenX":100.0,"screenY":100.0"#), "where the finger is")
    }

    func testSwipeUpOnAnItemWithItsOwnActions() {
        let a = client()
        send(a, #"{"request":"setRegion","region":"row","x":0,"y":0,"width":4096,"height":4096,"wants":["previews","quickActions"],"items":[{"id":"reply","title":"Reply"},{"id":"1","title":"1"},{"id":"2","title":"2"},{"id":"3","title":"3"},{"id":"4","title":"4"}]}"#)
        XCTAssertTrue(lines(a)[0].contains(#""cut":["4"]"#))
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 2000, y: 2000, p: 400) }
        s.frame(at: 10) { $0.slot(0, y: 1700) }
        s.frame(at: 20) { $0.slot(0, id: -1) }
        hub.handle(device: device, events: s.events[...])
        let got = lines(a)
        XCTAssertEqual(gestures(got), ["peek@row", "quickActions@row", "dismiss@row"])
        XCTAssertTrue(got[1].contains(#""items":[{"id":"reply","title":"Reply"}"#), got[1])
    }

    /// A press at (2000, 2000) that peeks and swipes up (quick actions), then lifts.
    func swipeUp(id: Int32 = 1) {
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: id, x: 2000, y: 2000, p: 400) }
        s.frame(at: 10) { $0.slot(0, y: 1700) }
        s.frame(at: 20) { $0.slot(0, id: -1) }
        hub.handle(device: device, events: s.events[...])
    }

    func testARegionWithItsOwnItemsAndNoPreviewsGetsThemOnTheSwipeUp() throws {
        let a = client()
        send(a, #"{"request":"setRegion","region":"row","x":0,"y":0,"width":4096,"height":4096,"wants":["quickActions"],"items":[{"id":"reply","title":"Reply"}]}"#)
        _ = lines(a)
        swipeUp()
        let got = lines(a)
        XCTAssertEqual(gestures(got), ["quickActions@row"], "no peek and no dismiss, but the items")
        XCTAssertTrue(got.first?.contains(#""region":"row","items":[{"id":"reply","title":"Reply"}]"#) ?? false, "\(got)")
    }

    func testAnIconShowsTheAppsItemsThenItsOwnEachIDOnce() throws {
        let launcher = client()
        let mail = client(#"{"request":"subscribe","app":"org.example.mail"}"#)
        send(mail, #"{"request":"setQuickActions","id":1,"items":[{"id":"compose","title":"Again"},{"id":"search","title":"Search"},{"id":"search","title":"Twice"}]}"#)
        XCTAssertEqual(lines(mail), [#"{"type":"reply","id":1,"request":"setQuickActions","app":"org.example.mail","items":["compose","inbox","search"],"cut":["compose","search"]}"#])
        send(launcher, #"{"request":"setRegion","id":2,"region":"icon","x":0,"y":0,"width":200,"height":200,"wants":["quickActions"],"app":"org.example.mail","items":[{"id":"remove","title":"Remove App"},{"id":"inbox","title":"Not again"},{"id":"share","title":"Share App"},{"id":"remove","title":"Twice"}]}"#)
        XCTAssertEqual(lines(launcher), [#"{"type":"reply","id":2,"request":"setRegion","region":"icon","items":["remove","inbox","share"],"cut":["remove"]}"#])
        press(100, 100)
        let got = lines(launcher)
        XCTAssertEqual(gestures(got), ["quickActions@icon"])
        let ids = (got.first ?? "").components(separatedBy: #"{"id":""#).dropFirst().map { $0.prefix { $0 != "\"" } }
        XCTAssertEqual(ids, ["compose", "inbox", "search", "remove"], "static, dynamic, then the icon's own; four at most")
    }

    /// `progress` of an owned touch rises only towards a gesture its owner can get.
    func testProgressIsAbsentWhereTheNextGestureCannotReachTheOwner() throws {
        let touches = #"{"request":"subscribe","events":["gestures","touches"]}"#
        func progress(_ lines: [String]) -> [String] {
            lines.filter { $0.contains(#""type":"touch""#) }.map { l in
                let phase = l.components(separatedBy: #""phase":""#)[1].prefix { $0 != "\"" }
                return phase + (l.contains(#""progress":"#) ? "+p" : "")
            }
        }
        let launcher = client(touches)
        send(launcher, #"{"request":"setRegion","region":"icon","x":0,"y":0,"width":200,"height":200,"wants":["quickActions"],"app":"org.example.mail"}"#)
        send(launcher, #"{"request":"setRegion","region":"button","x":300,"y":0,"width":200,"height":200,"wants":["longPress"]}"#)
        _ = lines(launcher)
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 100, y: 100, p: 100) }
        s.frame(at: 10) { $0.slot(0, p: 400) }  // the icon's menu, in place of the peek
        s.frame(at: 20) { $0.slot(0, p: 450) }  // towards a pop that cannot come
        s.frame(at: 30) { $0.slot(0, id: -1) }
        s.frame(at: 40) { $0.slot(0, id: 2, x: 400, y: 100, p: 100) }  // a button: no peek there at all
        s.frame(at: 50) { $0.slot(0, id: -1) }
        s.frame(at: 60) { $0.slot(0, id: 3, x: 3000, y: 3000, p: 100) }  // no region: the hint as ever
        s.frame(at: 70) { $0.slot(0, id: -1) }
        hub.handle(device: device, events: s.events[...])
        XCTAssertEqual(
            progress(lines(launcher)),
            ["began+p", "moved", "moved", "ended", "began", "ended", "began+p", "ended"])
    }

    func testAChoiceReachesAnAppThatConnectsLater() throws {
        let launcher = client()
        send(launcher, #"{"request":"chooseAction","id":1,"app":"org.example.mail","action":"compose"}"#, now: 1_000_000)
        XCTAssertTrue(lines(launcher)[0].contains(#""delivered":false"#))
        XCTAssertEqual(hub.nextDeadline, Timestamp(microseconds: 31_000_000))
        let mail = hub.connect(mayControl: false)
        send(mail, #"{"request":"subscribe","app":"org.example.mail"}"#, now: 5_000_000)
        let got = lines(mail)
        XCTAssertEqual(got.last, #"{"type":"action","app":"org.example.mail","action":"compose"}"#)
        XCTAssertNil(hub.nextDeadline)
        send(launcher, #"{"request":"chooseAction","app":"org.example.mail","action":"inbox"}"#, now: 6_000_000)
        XCTAssertTrue(lines(launcher)[0].contains(#""delivered":true"#))
        XCTAssertEqual(lines(mail), [#"{"type":"action","app":"org.example.mail","action":"inbox"}"#])
    }

    func testAChoiceWhoseAppNeverComesIsDroppedWithALogLine() {
        let launcher = client()
        send(launcher, #"{"request":"chooseAction","app":"org.example.gone","action":"x"}"#, now: 0)
        hub.tick(now: Timestamp(microseconds: 29_999_999))
        XCTAssertNotNil(hub.nextDeadline)
        hub.tick(now: Timestamp(microseconds: 30_000_000))
        XCTAssertNil(hub.nextDeadline)
        XCTAssertTrue(hub.takeWork().notices.contains(.clientWarning("dropped the choice x for org.example.gone: the app did not connect in time")))
        let late = hub.connect(mayControl: false)
        send(late, #"{"request":"subscribe","app":"org.example.gone"}"#, now: 31_000_000)
        XCTAssertFalse(lines(late).contains { $0.contains(#""type":"action""#) })
    }

    func testRegionsVanishWithTheirConnection() {
        let a = client()
        let b = client()
        send(a, #"{"request":"setRegion","region":"all","x":0,"y":0,"width":4096,"height":4096}"#)
        hub.disconnected(a)
        _ = lines(b)
        press(10, 10)
        XCTAssertEqual(gestures(lines(b)), ["peek", "dismiss"])
    }

    func testStatusCountsRegionsAndTheirContactsUntilTheConnectionGoes() {
        let a = client()
        send(a, #"{"request":"setRegion","region":"all","x":0,"y":0,"width":4096,"height":4096}"#)
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 10, y: 10, p: 100) }
        hub.handle(device: device, events: s.events[...])
        XCTAssertEqual(hub.status.regions, 1)
        XCTAssertEqual(hub.status.contacts, 1)
        XCTAssertEqual(hub.status.regionContacts, 1)
        // The owner hangs up mid-press: its region goes at once, the finger's ownership when it lifts (the
        // rest of that press is nobody's: the others never saw it begin).
        hub.disconnected(a)
        XCTAssertEqual(hub.status, DaemonStatus(devices: 1, contacts: 1, regionContacts: 1))
        let b = client()
        var lift = EventScript()
        lift.frame(at: 10) { $0.slot(0, p: 900) }
        lift.frame(at: 20) { $0.slot(0, id: -1) }
        hub.handle(device: device, events: lift.events[...])
        XCTAssertEqual(gestures(lines(b)), [])
        XCTAssertEqual(hub.status, DaemonStatus(devices: 1, clients: 1, subscribers: 1))
        XCTAssertFalse(hub.devices[0].pipeline.reportsTouches)
    }

    func testRunTimeQuickActionsAreKeptForAtMost256AppsAndAnEmptyListForgetsThem() {
        let c = hub.connect(mayControl: false)
        func setActions(app: String, _ items: String) {
            send(c, #"{"request":"subscribe","app":"\#(app)"}"#)
            send(c, #"{"request":"setQuickActions","items":\#(items)}"#)
        }
        let one = #"[{"id":"a","title":"A"}]"#
        for i in 0..<(Hub.maximumQuickActionApps + 10) { setActions(app: "app\(i)", one) }
        XCTAssertEqual(hub.status.quickActionApps, Hub.maximumQuickActionApps)
        XCTAssertNil(hub.quickActions.runTime["app9"])
        XCTAssertNotNil(hub.quickActions.runTime["app10"])
        XCTAssertTrue(hub.takeWork().notices.contains(.clientWarning(
            "forgot the quick actions of app0: more than 256 apps set some")))
        setActions(app: "app10", one)  // setting again makes app10 the newest: app11 goes next
        setActions(app: "new", one)
        XCTAssertNotNil(hub.quickActions.runTime["app10"])
        XCTAssertNil(hub.quickActions.runTime["app11"])
        setActions(app: "new", "[]")
        XCTAssertEqual(hub.status.quickActionApps, Hub.maximumQuickActionApps - 1)
        XCTAssertNil(hub.quickActions.runTime["new"])
    }

    func testRegionRequestErrors() {
        let a = client()
        let cases: [(String, String)] = [
            (#"{"request":"setRegion","region":"r","x":0,"y":0,"width":0,"height":5}"#, "positive"),
            (#"{"request":"setRegion","x":0,"y":0,"width":5,"height":5}"#, "'region' is required"),
            (#"{"request":"setRegion","region":"r","x":"0","y":0,"width":5,"height":5}"#, "'x' must be a number"),
            (#"{"request":"setRegion","region":"r","x":0,"y":0,"width":5,"height":5,"wants":["hugs"]}"#, "unknown want"),
            (#"{"request":"setRegion","region":"r","x":0,"y":0,"width":5,"height":5,"items":[{"id":"x"}]}"#, "'title' is required"),
            (#"{"request":"removeRegion","region":"nope"}"#, #"no region \"nope\""#),
            (#"{"request":"setQuickActions","items":[]}"#, "subscribe with an 'app'"),
            (#"{"request":"chooseAction","app":"x"}"#, "'action' is required"),
        ]
        for (request, message) in cases {
            send(a, request)
            let got = lines(a)
            XCTAssertEqual(got.count, 1, request)
            XCTAssertTrue(got[0].contains(#""error":"invalid-argument""#) && got[0].contains(message), "\(request) → \(got)")
        }
    }
}
