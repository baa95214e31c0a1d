import DeviceTestSupport
@testable import PressureCore
@testable import PressureHub
import XCTest

/// The hub's one clock: a device whose events carry other times (a replay's) says how they map onto it,
/// and the hub fires its long presses from the loop's timer at the right moment, with the capture's times.
extension HubTests {
    var loopStart: Timestamp { Timestamp(microseconds: 5_000_000_000) }

    func testPacedTimeMapsBothWaysAndTheOthersAsTheySay() {
        let paced = DeviceClock.paced(start: loopStart, origin: Timestamp(microseconds: 1_000_000), speed: 2)
        XCTAssertEqual(paced.deviceTime(at: loopStart + .milliseconds(250)), Timestamp(microseconds: 1_500_000))
        XCTAssertEqual(paced.hubTime(of: Timestamp(microseconds: 1_500_000)), loopStart + .milliseconds(250))
        XCTAssertEqual(DeviceClock.hub.deviceTime(at: loopStart), loopStart)
        XCTAssertEqual(DeviceClock.hub.hubTime(of: loopStart), loopStart)
        XCTAssertNil(DeviceClock.own.deviceTime(at: loopStart))
        XCTAssertNil(DeviceClock.own.hubTime(of: loopStart))
    }

    /// Gives the hub a finger down at capture time 0, held (its long press is due 500 ms of capture time
    /// later), and a client subscribed to gestures; returns the client.
    func hold(_ hub: inout Hub, _ clock: DeviceClock) throws -> Int {
        let dev = try XCTUnwrap(hub.addDevice(node: "replay:x", description: TestDevices.slotted, clock: clock))
        let c = hub.connect(mayControl: false)
        hub.receive(client: c, line: Array(#"{"request":"subscribe"}"#.utf8)[...], now: loopStart)
        _ = lines(&hub, c)
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 100, y: 100, p: 20) }
        hub.handle(device: dev, events: s.events[...])
        return c
    }

    func testAPacedDeviceLongPressesWhenTheLoopsClockReachesItsDeadline() throws {
        var hub = Hub(configuration: try TestDevices.configuration())
        let c = try hold(&hub, .paced(start: loopStart, origin: Timestamp(microseconds: 0), speed: 2))
        // 500 ms of capture at twice the pace: 250 ms after the replay started, on the loop's clock.
        XCTAssertEqual(hub.nextDeadline, loopStart + .milliseconds(250))
        hub.tick(now: loopStart + .milliseconds(249))
        XCTAssertEqual(lines(&hub, c), [])
        hub.tick(now: loopStart + .milliseconds(250))
        let got = lines(&hub, c)
        XCTAssertEqual(got.count, 1)
        XCTAssertTrue(got[0].hasPrefix(#"{"type":"longPress","time":0.500000,"#), got[0])
        XCTAssertNil(hub.nextDeadline)
    }

    func testADeviceOnItsOwnClockIsNeverTickedByTheLoop() throws {
        var hub = Hub(configuration: try TestDevices.configuration())
        let c = try hold(&hub, .own)
        XCTAssertNil(hub.nextDeadline)
        hub.tick(now: loopStart + .milliseconds(10_000))
        XCTAssertEqual(lines(&hub, c), [], "the loop's time says nothing of a replay at full speed")
        // The clock a replay gets once it starts pacing: the deadline falls due from then on.
        hub.setClock(.paced(start: loopStart, origin: Timestamp(microseconds: 0), speed: 1), device: 1)
        XCTAssertEqual(hub.nextDeadline, loopStart + .milliseconds(500))
    }
}
