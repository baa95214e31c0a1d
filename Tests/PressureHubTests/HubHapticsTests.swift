import DeviceTestSupport
@testable import PressureCore
@testable import PressureHub
import XCTest

/// Which haptic effects the hub asks for, on which frame: peek then pop, pop only where one frame crosses
/// both, none for a region that opted out, none with haptics or force off (long press stays).
final class HubHapticsTests: XCTestCase {
    var hub = Hub(configuration: Configuration())
    var device = 0
    /// Where the next press starts (ms): each press a second after the one before.
    var nextPressAt: Int64 = 0

    func start(_ more: String) throws {
        hub = Hub(configuration: try TestDevices.configuration(more))
        device = try XCTUnwrap(hub.addDevice(node: "n", description: TestDevices.slotted))
        _ = hub.takeWork()
    }

    func send(_ c: Int, _ json: String) { hub.request(c, json) }
    func lines(_ c: Int) -> [String] { hub.drainedLines(c) }

    /// Feeds frames and returns the haptics asked for, as `gesture@ms` from the press's start.
    func played(_ s: EventScript, from origin: Int64 = 0) -> [String] {
        hub.handle(device: device, events: s.events[...])
        return hub.takeWork().haptics.map { "\($0.gesture.rawValue)@\($0.time.microseconds / 1000 - origin)" }
    }

    /// Feeds a press (``press(_:x:y:id:)``) and returns what it played, times from its start.
    func pressed(_ pressures: [Int32], x: Int32 = 100, y: Int32 = 100, id: Int32 = 1) -> [String] {
        let origin = nextPressAt
        return played(press(pressures, x: x, y: y, id: id), from: origin)
    }

    /// Down at (x, y), then each pressure a frame 10 ms apart, then up.
    func press(_ pressures: [Int32], x: Int32 = 100, y: Int32 = 100, id: Int32 = 1) -> EventScript {
        var s = EventScript()
        let t = nextPressAt
        nextPressAt += 1000
        s.frame(at: t) { $0.slot(0, id: id, x: x, y: y, p: 100) }
        for (i, p) in pressures.enumerated() { s.frame(at: t + Int64(10 * (i + 1))) { $0.slot(0, p: p) } }
        s.frame(at: t + Int64(10 * (pressures.count + 1))) { $0.slot(0, id: -1) }
        return s
    }

    func testPeekThenPopEachOnTheFrameThatCrossedAndDismissPlaysNothing() throws {
        try start("")
        XCTAssertEqual(pressed([400, 450, 900]), ["peek@10", "pop@30"])
        XCTAssertEqual(pressed([400], id: 2), ["peek@10"], "the dismiss on lifting plays nothing")
    }

    func testAFrameThatCrossesPeekAndPopTogetherPlaysThePopOnly() throws {
        try start("")
        XCTAssertEqual(pressed([950]), ["pop@10"])
    }

    func testHapticsPlayWithoutAnyClientAndForNobodyElse() throws {
        try start("")
        let c = hub.connect(mayControl: false)
        XCTAssertEqual(pressed([400]), ["peek@10"], "the user feels the peek whether or not an app listens")
        _ = lines(c)
    }

    func testARegionThatOptsOutPlaysNoneAndOthersStillDo() throws {
        try start("")
        let app = hub.connect(mayControl: false)
        send(app, #"{"request":"subscribe"}"#)
        send(app, #"{"request":"setRegion","region":"own","x":0,"y":0,"width":2000,"height":2000,"haptics":false}"#)
        send(app, #"{"request":"setRegion","region":"felt","x":2000,"y":0,"width":2000,"height":2000}"#)
        _ = lines(app)
        XCTAssertEqual(pressed([400, 900]), [], "the app plays its own")
        XCTAssertTrue(lines(app).contains { $0.contains(#""type":"pop""#) }, "the gestures still go to the app")
        XCTAssertEqual(pressed([400, 900], x: 2500, id: 2), ["peek@10", "pop@20"])
    }

    func testAGestureARegionWithholdsPlaysNothingAndAnIconsMenuPlaysQuickActions() throws {
        try start("")
        let app = hub.connect(mayControl: false)
        send(app, #"{"request":"subscribe"}"#)
        send(app, #"{"request":"setRegion","region":"list","x":0,"y":0,"width":2000,"height":2000,"wants":["longPress"]}"#)
        send(app, #"{"request":"setRegion","region":"icon","x":2000,"y":0,"width":2000,"height":2000,"app":"org.example.mail","wants":["quickActions"]}"#)
        XCTAssertEqual(pressed([400, 900]), [], "no preview wanted: no peek, no pop, nothing felt")
        XCTAssertEqual(pressed([400, 900], x: 2500, id: 2), ["quickActions@10"], "the menu is the press")
    }

    func testForceOffPlaysLongPressOnlyAndLongPressCanBeTurnedOff() throws {
        try start("[pressured]\nForceTouch = off\n")
        var hold = EventScript()
        hold.frame(at: 0) { $0.slot(0, id: 1, x: 100, y: 100, p: 900) }
        XCTAssertEqual(played(hold), [])
        hub.tick(now: Timestamp(microseconds: 500_000))
        XCTAssertEqual(hub.takeWork().haptics.map(\.gesture), [.longPress])

        try start("[haptics]\nLongPressEffect = off\n")
        var light = EventScript()
        light.frame(at: 0) { $0.slot(0, id: 1, x: 100, y: 100, p: 120) }
        XCTAssertEqual(played(light), [])
        hub.tick(now: Timestamp(microseconds: 500_000))
        XCTAssertEqual(hub.takeWork().haptics, [])
        XCTAssertEqual(hub.settings.hapticsEnabled, true, "other gestures still play")
    }

    func testControlTurnsHapticsOffForEveryoneAndEveryoneHearsIt() throws {
        try start("")
        let user = hub.connect(mayControl: false)
        let admin = hub.connect(mayControl: true)
        _ = lines(user)
        _ = lines(admin)
        send(user, #"{"request":"set","id":1,"haptics":false}"#)
        XCTAssertTrue(lines(user)[0].contains(#""error":"not-permitted""#))
        XCTAssertTrue(hub.settings.hapticsEnabled)
        send(admin, #"{"request":"set","id":2,"haptics":false}"#)
        XCTAssertEqual(lines(admin), [
            #"{"type":"reply","id":2,"request":"set","settings":{"forceTouch":true,"sensitivity":"medium","haptics":false}}"#,
            #"{"type":"settings","settings":{"forceTouch":true,"sensitivity":"medium","haptics":false}}"#,
        ])
        XCTAssertEqual(lines(user), [#"{"type":"settings","settings":{"forceTouch":true,"sensitivity":"medium","haptics":false}}"#])
        XCTAssertEqual(pressed([400, 900]), [])
        send(admin, #"{"request":"set","id":3,"haptics":true}"#)
        XCTAssertEqual(pressed([400, 900], id: 2), ["peek@10", "pop@20"])
    }

    func testHapticsOffInTheConfigurationCannotBeSetOn() throws {
        try start("[haptics]\nHaptics = off\n")
        let admin = hub.connect(mayControl: true)
        XCTAssertTrue(lines(admin)[0].contains(#""haptics":false"#), "hello says so")
        send(admin, #"{"request":"set","id":1,"haptics":true}"#)
        XCTAssertTrue(lines(admin)[0].contains(#""haptics":false"#))
        XCTAssertEqual(pressed([400, 900]), [])
    }

    func testTakingTheWorkKeepsTheHapticsStorage() throws {
        try start("")
        var taken = Hub.Work()
        hub.handle(device: device, events: press([400, 900]).events[...])
        hub.takeWork(&taken)
        XCTAssertEqual(taken.haptics.count, 2)
        let capacity = taken.haptics.capacity
        taken.removeAll()
        XCTAssertTrue(taken.isEmpty)
        XCTAssertEqual(taken.haptics.capacity, capacity, "no allocation per frame once warmed up")
    }
}
