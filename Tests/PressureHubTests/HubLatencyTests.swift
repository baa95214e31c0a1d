import DeviceTestSupport
@testable import PressureCapture
@testable import PressureCore
@testable import PressureHub
import TestSupport
import XCTest

/// Latency telemetry in the hub: each frame measured from its time on the loop's clock to the loop's
/// readings of when it was queued and when every client had it, with the clock readings given as values.
final class HubLatencyTests: XCTestCase {
    let t0: Int64 = 7_000_000  // the frames' times below are t0 + their ms, in µs

    /// Gives the hub a device and one client subscribed to gestures and touches, so every frame has a line.
    func subscribe(_ hub: inout Hub, clock: DeviceClock = .hub) throws -> (device: Int, client: Int) {
        let dev = try XCTUnwrap(hub.addDevice(node: "/dev/input/event9", description: TestDevices.slotted, clock: clock))
        let c = hub.connect(mayControl: false)
        hub.request(c, #"{"request":"subscribe","events":["gestures","touches"]}"#)
        var s = ClientStream()
        hub.read(c, into: &s)
        return (dev, c)
    }

    func frames(_ times: [Int64], base: Int64) -> [InputEvent] {
        var s = EventScript()
        for (k, ms) in times.enumerated() {
            s.frame(at: ms) { k == 0 ? $0.slot(0, id: 1, x: 100, y: 100, p: 10) : $0.slot(0, x: Int32(100 + k)) }
        }
        return s.events.map { InputEvent(time: Timestamp(microseconds: $0.time.microseconds + base), type: $0.type, code: $0.code, value: $0.value) }
    }

    func figures(_ hub: borrowing Hub) throws -> DeviceLatency { try XCTUnwrap(hub.latency.first) }

    func testQueueAndDeliveryAreMeasuredFromEachFramesTime() throws {
        var hub = Hub(configuration: try TestDevices.configuration())
        let (dev, c) = try subscribe(&hub)
        hub.handle(device: dev, events: frames([0, 1], base: t0)[...])
        XCTAssertTrue(hub.awaitsQueueTime)
        hub.framesQueued(now: Timestamp(microseconds: t0 + 1_150))  // 1150 and 150 µs after the frames
        XCTAssertFalse(hub.awaitsQueueTime)
        var f = try figures(hub)
        XCTAssertEqual(f.queue.count, 2)
        XCTAssertEqual(f.queue.sumMicroseconds, 1_300)
        XCTAssertEqual(f.queue.counts[LatencyHistogram.bucket(ofMicroseconds: 150)], 1)
        XCTAssertEqual(f.queue.counts[LatencyHistogram.bucket(ofMicroseconds: 1_150)], 1)
        XCTAssertEqual(f.delivery.count, 0, "not written yet")
        XCTAssertTrue(hub.awaitsDelivery)
        // The client's bytes are still queued: nothing is delivered.
        hub.framesWritten(now: Timestamp(microseconds: t0 + 2_000))
        XCTAssertEqual(try figures(hub).delivery.count, 0)
        var s = ClientStream()
        hub.read(c, into: &s)
        XCTAssertFalse(s.lines.isEmpty)
        hub.framesWritten(now: Timestamp(microseconds: t0 + 3_000))
        f = try figures(hub)
        XCTAssertEqual(f.delivery.count, 2)
        XCTAssertEqual(f.delivery.sumMicroseconds, 3_000 + 2_000)
        XCTAssertFalse(hub.awaitsDelivery)
        XCTAssertEqual(f.unmeasured, 0)
        XCTAssertEqual(f.node, "/dev/input/event9")
        XCTAssertEqual(f.device, dev)
    }

    func testAFrameNobodyGetsALineOfIsQueuedButNotDelivered() throws {
        var hub = Hub(configuration: try TestDevices.configuration())
        let dev = try XCTUnwrap(hub.addDevice(node: "n", description: TestDevices.slotted))
        _ = hub.connect(mayControl: false)  // connected, not subscribed
        hub.handle(device: dev, events: frames([0], base: t0)[...])
        hub.framesQueued(now: Timestamp(microseconds: t0 + 40))
        XCTAssertFalse(hub.awaitsDelivery)
        let f = try figures(hub)
        XCTAssertEqual(f.queue.count, 1)
        XCTAssertEqual(f.queue.counts[LatencyHistogram.bucket(ofMicroseconds: 40)], 1)
        XCTAssertEqual(f.delivery.count, 0)
    }

    func testAReplayAtFullSpeedIsMeasuredFromItsHandOverAndWithoutOneNotAtAll() throws {
        var hub = Hub(configuration: try TestDevices.configuration())
        let (dev, _) = try subscribe(&hub, clock: .own)
        hub.handle(device: dev, events: frames([0], base: 0)[...])
        XCTAssertFalse(hub.awaitsQueueTime, "the capture's time is on no clock the loop has")
        XCTAssertEqual(try figures(hub).unmeasured, 1)
        hub.handle(device: dev, events: frames([5], base: 0)[...], handedOverAt: Timestamp(microseconds: t0))
        hub.framesQueued(now: Timestamp(microseconds: t0 + 25))
        let f = try figures(hub)
        XCTAssertEqual(f.queue.count, 1)
        XCTAssertEqual(f.queue.sumMicroseconds, 25)
    }

    func testAPacedReplayIsMeasuredFromWhenItsScheduleHadTheFrame() throws {
        // Capture time 0 at loop time t0, twice as fast: a frame at 10 ms of capture is due at t0 + 5 ms.
        let clock = DeviceClock.paced(start: Timestamp(microseconds: t0), origin: Timestamp(microseconds: 0), speed: 2)
        var hub = Hub(configuration: try TestDevices.configuration())
        let (dev, _) = try subscribe(&hub, clock: clock)
        hub.handle(device: dev, events: frames([10], base: 0)[...], handedOverAt: Timestamp(microseconds: 1))
        hub.framesQueued(now: Timestamp(microseconds: t0 + 5_300))
        XCTAssertEqual(try figures(hub).queue.sumMicroseconds, 300)
    }

    func testFramesBeyondWhatIsTrackedAreCountedUnmeasured() throws {
        var hub = Hub(configuration: try TestDevices.configuration())
        let (dev, _) = try subscribe(&hub)
        let n = FrameLatency.capacity + 3
        hub.handle(device: dev, events: frames((0..<Int64(n)).map { $0 }, base: t0)[...])
        hub.framesQueued(now: Timestamp(microseconds: t0 + 1_000_000))
        let f = try figures(hub)
        XCTAssertEqual(f.queue.count, UInt64(FrameLatency.capacity))
        XCTAssertEqual(f.unmeasured, 3)
    }

    func testADeviceThatGoesKeepsItsFiguresBounded() throws {
        var hub = Hub(configuration: try TestDevices.configuration())
        let (dev, c) = try subscribe(&hub)
        hub.handle(device: dev, events: frames([0], base: t0)[...])
        hub.framesQueued(now: Timestamp(microseconds: t0 + 10))
        hub.removeDevice(dev)
        XCTAssertEqual(hub.deviceCount, 0)
        XCTAssertEqual(hub.latency.map(\.device), [dev])
        XCTAssertEqual(try figures(hub).queue.count, 1)
        // Its last frame is still on its way: delivered once written, as a live device's.
        XCTAssertTrue(hub.awaitsDelivery)
        var s = ClientStream()
        hub.read(c, into: &s)
        hub.framesWritten(now: Timestamp(microseconds: t0 + 900))
        XCTAssertEqual(try figures(hub).delivery.sumMicroseconds, 900)
        for k in 0..<Hub.retiredLatencyKept {
            let d = try XCTUnwrap(hub.addDevice(node: "n\(k)", description: TestDevices.slotted))
            hub.removeDevice(d)
        }
        XCTAssertEqual(hub.latency.count, Hub.retiredLatencyKept)
        XCTAssertFalse(hub.latency.contains { $0.device == dev }, "the oldest is forgotten first")
    }
}
