import DeviceTestSupport
@testable import PressureCore
@testable import PressureHub
import XCTest

/// The daemon's decisions without any I/O: routing, subscriptions, queues, control and unplug.
final class HubTests: XCTestCase {
    /// Everything queued for a client so far, as lines.
    func lines(_ hub: inout Hub, _ client: Int) -> [String] {
        var bytes: [UInt8] = []
        hub.drain(client: client) { b in
            bytes += b
            return b.count
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Each line's `type` (with its `phase` for touches), read with the protocol's JSON parser; a line
    /// that is not a JSON object with a type shows as itself, so the comparison fails with it in view.
    func types(_ lines: [String]) -> [String] {
        lines.map { line in
            guard let v = try? JSONParser.parse(line), let t = v["type"]?.stringValue else { return "not a message: \(line)" }
            return t == "touch" ? "touch/" + (v["phase"]?.stringValue ?? "no phase") : t
        }
    }

    func press() -> [InputEvent] {
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 100, y: 100, p: 100) }
        s.frame(at: 10) { $0.slot(0, p: 500) }
        return s.events
    }

    func subscribe(_ hub: inout Hub, _ c: Int, _ json: String) {
        hub.receive(client: c, line: Array(json.utf8)[...], now: Timestamp(microseconds: 0))
    }

    func testRoutingFollowsSubscriptions() throws {
        var hub = Hub(configuration: try TestDevices.configuration())
        let dev = try XCTUnwrap(hub.addDevice(node: "/dev/input/event5", description: TestDevices.slotted))
        let gesturesOnly = hub.connect(mayControl: false)
        let touches = hub.connect(mayControl: false)
        let otherDevice = hub.connect(mayControl: false)
        let silent = hub.connect(mayControl: false)
        subscribe(&hub, gesturesOnly, #"{"request":"subscribe"}"#)
        subscribe(&hub, touches, #"{"request":"subscribe","events":["touches"]}"#)
        subscribe(&hub, otherDevice, #"{"request":"subscribe","devices":[2]}"#)
        for c in [gesturesOnly, touches, otherDevice, silent] { _ = lines(&hub, c) }
        hub.handle(device: dev, events: press()[...])
        XCTAssertEqual(types(lines(&hub, gesturesOnly)), ["peek"])
        XCTAssertEqual(types(lines(&hub, touches)), ["touch/began", "touch/moved"])
        XCTAssertEqual(lines(&hub, otherDevice), [])
        XCTAssertEqual(lines(&hub, silent), [])
    }

    func testTouchesAreEncodedOnlyWhileSomeoneListens() throws {
        var hub = Hub(configuration: try TestDevices.configuration())
        let dev = try XCTUnwrap(hub.addDevice(node: "n", description: TestDevices.slotted))
        XCTAssertFalse(hub.devices[0].pipeline.reportsTouches)
        let c = hub.connect(mayControl: false)
        subscribe(&hub, c, #"{"request":"subscribe","events":["gestures","touches"],"devices":[\#(dev)]}"#)
        XCTAssertTrue(hub.devices[0].pipeline.reportsTouches)
        hub.disconnected(c)
        XCTAssertFalse(hub.devices[0].pipeline.reportsTouches)
    }

    func testAnUnpluggedDeviceEndsItsPeeksBeforeItIsRemoved() throws {
        var hub = Hub(configuration: try TestDevices.configuration())
        let dev = try XCTUnwrap(hub.addDevice(node: "n", description: TestDevices.slotted))
        let c = hub.connect(mayControl: false)
        subscribe(&hub, c, #"{"request":"subscribe","events":["gestures","touches","devices"]}"#)
        hub.handle(device: dev, events: press()[...])
        _ = lines(&hub, c)
        hub.removeDevice(dev)
        XCTAssertEqual(types(lines(&hub, c)), ["dismiss", "touch/cancelled", "device"])
        XCTAssertEqual(hub.deviceIDs, [])
        hub.handle(device: dev, events: press()[...])  // late events for a gone device are ignored
        XCTAssertEqual(lines(&hub, c), [])
    }

    func testStatusCountsWhatTheHubHoldsAndComesBackToItsBaseline() throws {
        var hub = Hub(configuration: try TestDevices.configuration())
        XCTAssertEqual(hub.status, DaemonStatus())
        let dev = try XCTUnwrap(hub.addDevice(node: "n", description: TestDevices.slotted))
        let c = hub.connect(mayControl: false)
        let idle = hub.connect(mayControl: false)
        subscribe(&hub, c, #"{"request":"subscribe"}"#)
        _ = lines(&hub, c)
        _ = lines(&hub, idle)  // its hello
        var s = EventScript()
        s.frame(at: 0) {
            $0.slot(0, id: 1, x: 100, y: 100, p: 100)
            $0.slot(1, id: 2, x: 900, y: 900, p: 100)
        }
        hub.handle(device: dev, events: s.events[...])
        XCTAssertEqual(hub.status, DaemonStatus(devices: 1, clients: 2, subscribers: 1, contacts: 2))
        // Asked through the protocol, by a connection that never subscribed. The frame's latency waits for the
        // loop's clock reading (`framesQueued(now:)`), which no one gave here.
        let empty = #"{"count":0,"sum":0.000000,"buckets":["# + Array(repeating: "0", count: 19).joined(separator: ",") + "]}"
        subscribe(&hub, idle, #"{"request":"status","id":1}"#)
        XCTAssertEqual(lines(&hub, idle), [
            #"{"type":"reply","id":1,"request":"status","status":{"devices":1,"clients":2,"subscribers":1,"contacts":2,"#
                + #""regionContacts":0,"regions":0,"quickActionApps":0,"pendingChoices":0,"queuedBytes":0},"#
                + #""force":[{"device":1,"forceCapability":"available","averageSource":"configured","floor":0,"#
                + #""average":270.0,"top":1000,"peekRaw":378,"popRaw":540,"peekForce":1.4,"popForce":2.0,"#
                + #""maximumPossibleForce":3.7037}],"latency":[{"device":1,"node":"n","queue":"# + empty + #","delivery":"#
                + empty + #","unmeasured":0}],"activity":{"wakeups":0,"accepted":0,"refused":0,"acceptErrors":0}}"#])
        var lift = EventScript()
        lift.frame(at: 50) { $0.slot(0, id: -1) }
        hub.handle(device: dev, events: lift.events[...])
        XCTAssertEqual(hub.status.contacts, 1)
        hub.handle(device: dev, events: press()[...])  // hold nothing back: bytes wait in c's queue
        XCTAssertGreaterThan(hub.status.queuedBytes, 0)
        _ = lines(&hub, c)
        hub.removeDevice(dev)  // the finger still down goes with its device
        hub.disconnected(c)
        hub.disconnected(idle)
        XCTAssertEqual(hub.status, DaemonStatus())
    }

    func testLongPressComesFromTheTimerTick() throws {
        var hub = Hub(configuration: try TestDevices.configuration())
        let dev = try XCTUnwrap(hub.addDevice(node: "n", description: TestDevices.slotted))
        let c = hub.connect(mayControl: false)
        subscribe(&hub, c, #"{"request":"subscribe"}"#)
        _ = lines(&hub, c)
        hub.handle(device: dev, events: Array(press().prefix(6))[...])  // down, light, no more events
        XCTAssertEqual(hub.nextDeadline, Timestamp(microseconds: 500_000))
        hub.tick(now: Timestamp(microseconds: 499_999))
        XCTAssertEqual(lines(&hub, c), [])
        hub.tick(now: Timestamp(microseconds: 500_000))
        XCTAssertEqual(types(lines(&hub, c)), ["longPress"])
        XCTAssertNil(hub.nextDeadline)
    }

    func testErrorsCountInARowAndBlankLinesAreSkipped() throws {
        var hub = Hub(configuration: try TestDevices.configuration())
        let c = hub.connect(mayControl: false)
        _ = lines(&hub, c)
        for line in ["", " ", "\t \r"] { subscribe(&hub, c, line) }
        XCTAssertEqual(lines(&hub, c), [], "a blank line gets no answer")
        for _ in 0..<3 {
            for _ in 0..<(Hub.maximumErrorsPerClient - 1) { subscribe(&hub, c, "nope") }
            subscribe(&hub, c, #"{"request":"ping","id":1}"#)
        }
        XCTAssertTrue(hub.takeWork().disconnects.isEmpty, "errors broken by a good request never add up")
        XCTAssertEqual(lines(&hub, c).last, #"{"type":"reply","id":1,"request":"ping","time":0.000000}"#)
        for _ in 0..<(Hub.maximumErrorsPerClient - 1) { subscribe(&hub, c, #"{"request":"reload","id":2}"#) }
        XCTAssertTrue(lines(&hub, c).allSatisfy { $0.contains(#""error":"not-permitted""#) })
        subscribe(&hub, c, "nope")
        XCTAssertTrue(hub.takeWork().disconnects.isEmpty, "closed only once its last lines are written")
        XCTAssertEqual(
            lines(&hub, c).last,
            #"{"type":"error","error":"too-many-errors","message":"100 errors in a row on this connection","fatal":true}"#)
        XCTAssertEqual(hub.takeWork().disconnects.map(\.client), [c])
    }

    func testControlNeedsPermissionAndEveryoneHearsTheChange() throws {
        var hub = Hub(configuration: try TestDevices.configuration())
        _ = hub.addDevice(node: "n", description: TestDevices.slotted)
        let user = hub.connect(mayControl: false)
        let admin = hub.connect(mayControl: true)
        _ = lines(&hub, user)
        _ = lines(&hub, admin)
        subscribe(&hub, user, #"{"request":"set","id":1,"forceTouch":false}"#)
        XCTAssertTrue(lines(&hub, user)[0].contains(#""error":"not-permitted""#))
        XCTAssertTrue(hub.settings.forceTouchEnabled)
        subscribe(&hub, admin, #"{"request":"set","id":2,"forceTouch":false}"#)
        XCTAssertEqual(types(lines(&hub, admin)), ["reply", "device", "settings"])
        XCTAssertEqual(types(lines(&hub, user)), ["device", "settings"])
        XCTAssertEqual(hub.deviceInfos[0].forceCapability, .unavailable)
        subscribe(&hub, admin, #"{"request":"set","id":3,"sensitivity":"firm"}"#)
        XCTAssertEqual(types(lines(&hub, admin)), ["reply", "settings"], "no device change: force stays off")
    }

    func testAReloadWithBrokenCalibrationFallsBackToDefaultsAndSaysSo() throws {
        // The defaults of a device nobody calibrated: its average touch is learned.
        var hub = Hub(configuration: Configuration())
        _ = hub.addDevice(node: "n", description: TestDevices.slotted)
        let before = hub.deviceInfos[0]
        XCTAssertEqual(before.forceUnavailable, "learning")
        let config = try Configuration.parse("[x]\nMatchName=Test*\nPressureFloor=900\nPressureAverage=100\n", file: "c.conf")
        hub.reload(config)
        XCTAssertEqual(hub.deviceInfos[0], before)
        XCTAssertTrue(hub.takeWork().notices.contains { if case .warning(let m) = $0 { return m.contains("c.conf") } else { return false } })
    }

    func testADeviceGetsItsTrackerSettingsAndBrokenThresholdsFallBackToTheDefaults() throws {
        let good = try Configuration.parse(
            "[pressured]\nPalmSizeMm=off\n[r]\nMatchName=Test Resistive*\nPressureTouchDown=60\n", file: "c.conf")
        var hub = Hub(configuration: good)
        _ = hub.addDevice(node: "n", description: TestDevices.singleTouchWithoutButton)
        XCTAssertEqual(hub.devices[0].pipeline.tracker.settings, TrackerSettings(touchDown: 60, palmSize: .off))
        // Down below the default up (25): the thresholds are dropped with a warning; the palm size stays.
        let bad = try Configuration.parse(
            "[pressured]\nPalmSizeMm=off\n[r]\nMatchName=Test Resistive*\nPressureTouchDown=20\n", file: "c.conf")
        hub = Hub(configuration: bad)
        _ = hub.addDevice(node: "n", description: TestDevices.singleTouchWithoutButton)
        XCTAssertEqual(hub.devices[0].pipeline.tracker.settings, TrackerSettings(palmSize: .off))
        XCTAssertTrue(hub.takeWork().notices.contains {
            if case .warning(let m) = $0 { return m.contains("c.conf:3") && m.contains("default touch thresholds") }
            return false
        })
    }

    func testNotATouchDeviceIsNotServed() {
        var hub = Hub(configuration: Configuration())
        XCTAssertNil(hub.addDevice(node: "/dev/input/event0", description: DeviceDescription(name: "Power Button")))
        XCTAssertEqual(hub.deviceIDs, [])
    }

    /// The vmtest fleet found it: a Dell Canvas totem's System Multi-Axis Controller (advanced_silicon
    /// 2575:0204) is a direct node udev calls a touchscreen, so a totem resting on the panel long-pressed.
    /// hid-multitouch makes it multi-touch with MT_TOOL_DIAL as its only tool where its collection has
    /// contact identifiers; Linux 6.1 gave this one hid-input's ABS_X/Y and BTN_TOUCH under the kernel's
    /// " System Multi Axis" name. Neither is served.
    func testADialIsNotServed() {
        var multitouch = TestDevices.slottedWithoutPressure
        multitouch.name = "Canvas Totem"
        multitouch.absInfo[AbsCode.mtToolType] = AbsInfo(minimum: MTTool.dial, maximum: MTTool.dial)
        var generic = TestDevices.singleTouch
        generic.name = "uhid test advanced_silicon_2575_0204 System Multi Axis"
        var hub = Hub(configuration: Configuration())
        for totem in [multitouch, generic] {
            XCTAssertThrowsError(try TouchDevice(totem)) {
                XCTAssertEqual($0 as? TouchDevice.NotATouchDevice, .init(name: totem.name, reason: .dial))
            }
            XCTAssertNil(hub.addDevice(node: "/dev/input/event2", description: totem))
            XCTAssertTrue(hub.takeWork().notices.contains {
                if case .info(let m) = $0 { return m.contains("it is a dial") }
                return false
            })
        }
        // A touchscreen whose firmware tells fingers from palms is still one, and so is the same device's
        // touchscreen node.
        XCTAssertNotNil(hub.addDevice(node: "/dev/input/event3", description: TestDevices.slottedWithPalms))
        var screen = TestDevices.slotted
        screen.name = "uhid test advanced_silicon_2575_0204"
        XCTAssertNotNil(hub.addDevice(node: "/dev/input/event1", description: screen))
    }

    func testTheHubLogsUnusableProperties() throws {
        var hub = Hub(configuration: Configuration())
        _ = hub.addDevice(node: "/dev/input/event3", description: TestDevices.slotted,
                          udev: UdevDeviceProperties(["LIBINPUT_CALIBRATION_MATRIX": "1 2"]))
        XCTAssertTrue(hub.takeWork().notices.contains(
            .warning(#"/dev/input/event3: ignoring udev property LIBINPUT_CALIBRATION_MATRIX="1 2" (expected six numbers)"#)))
    }
}
