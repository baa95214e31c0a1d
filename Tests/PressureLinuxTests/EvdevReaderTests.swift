import CLibevdev
import Glibc
import PressureCore
import XCTest

@testable import PressureLinux

/// The read loop driven by a scripted `libevdev_next_event`, with the post-resync state held by an
/// in-memory libevdev.
final class EvdevReaderTests: XCTestCase {
    /// One scripted return of `libevdev_next_event`: the flags it expects, the status, the event.
    struct Step {
        var flags: UInt32
        var status: Int32
        var event: input_event
    }

    static func ev(_ sec: Int, _ usec: Int, _ type: Int32, _ code: Int32, _ value: Int32) -> input_event {
        input_event(time: timeval(tv_sec: sec, tv_usec: usec), type: UInt16(type), code: UInt16(code), value: value)
    }

    static func normal(_ e: input_event) -> Step { Step(flags: EvdevReader.normal, status: EvdevReader.success, event: e) }
    static func dropped(_ sec: Int, _ usec: Int) -> Step {
        Step(flags: EvdevReader.normal, status: EvdevReader.syncStatus, event: ev(sec, usec, EV_SYN, SYN_DROPPED, 0))
    }
    static func synced(_ e: input_event) -> Step { Step(flags: EvdevReader.sync, status: EvdevReader.syncStatus, event: e) }
    static func end(_ flags: UInt32, _ errno: Int32 = EAGAIN) -> Step { Step(flags: flags, status: -errno, event: input_event()) }

    func run(_ mem: MemoryEvdev, _ script: [Step], into events: inout [InputEvent]) -> DeviceReadOutcome {
        var steps = script[...]
        let outcome = EvdevReader.read(mem.dev, node: "/dev/input/event7", into: &events) { flags, ev in
            guard let step = steps.popFirst() else {
                XCTFail("read past the script")
                return -EAGAIN
            }
            XCTAssertEqual(flags, step.flags, "read flags")
            ev = step.event
            return step.status
        }
        XCTAssertTrue(steps.isEmpty, "script not consumed: \(steps.count) steps left")
        return outcome
    }

    /// A pipeline on `mem`'s device in which tracking id 7 began at (10, 10) in `slot`, outputs cleared.
    func pipelineWithAContact(_ mem: MemoryEvdev, slot: Int32) throws -> TouchPipeline {
        let device = try TouchDevice(EvdevDescription.description(of: mem.dev))
        var pipeline = TouchPipeline(
            device: device, deviceID: 1, calibration: nil, settings: GestureSettings(), reportsTouches: true)
        // Down at 1.8 s: the resyncs below, at 2 s, come before its long press is due.
        let t0 = Timestamp(seconds: 1, microseconds: 800_000)
        for e in [(AbsCode.mtSlot, slot), (AbsCode.mtTrackingID, 7), (AbsCode.mtPositionX, 10), (AbsCode.mtPositionY, 10)] {
            pipeline.handle(InputEvent(time: t0, type: EventType.abs, code: e.0, value: e.1))
        }
        pipeline.handle(InputEvent(time: t0, type: EventType.syn, code: SynCode.report, value: 0))
        XCTAssertEqual(pipeline.outputs.map(\.kind), [.touch(.began)])
        pipeline.clearOutputs()
        return pipeline
    }

    func testReadsEverythingAvailableWithTimestamps() throws {
        let mem = try MemoryEvdev.multiTouchScreen()
        var events: [InputEvent] = []
        events.reserveCapacity(16)
        let outcome = run(mem, [
            Self.normal(Self.ev(12, 345_678, EV_ABS, ABS_MT_POSITION_X, 100)),
            Self.normal(Self.ev(12, 345_678, EV_SYN, SYN_REPORT, 0)),
            Self.end(EvdevReader.normal, EINTR),
            Self.normal(Self.ev(12, 350_000, EV_SYN, SYN_REPORT, 0)),
            Self.end(EvdevReader.normal),
        ], into: &events)
        guard case .ok = outcome else { return XCTFail("expected .ok, got \(outcome)") }
        XCTAssertEqual(events, [
            InputEvent(time: Timestamp(microseconds: 12_345_678), type: EventType.abs, code: AbsCode.mtPositionX, value: 100),
            InputEvent(time: Timestamp(microseconds: 12_345_678), type: EventType.syn, code: SynCode.report, value: 0),
            InputEvent(time: Timestamp(microseconds: 12_350_000), type: EventType.syn, code: SynCode.report, value: 0),
        ])
    }

    func testDropResyncsFromLibevdevSlotState() throws {
        let mem = try MemoryEvdev.multiTouchScreen()
        // What libevdev knows once its sync is done: slot 0 still down and moved, slot 2 new, current slot 2.
        mem.slot(0, ABS_MT_TRACKING_ID, 41)
        mem.slot(0, ABS_MT_POSITION_X, 1000)
        mem.slot(0, ABS_MT_POSITION_Y, 900)
        mem.slot(0, ABS_MT_PRESSURE, 80)
        mem.slot(2, ABS_MT_TRACKING_ID, 43)
        mem.slot(2, ABS_MT_POSITION_X, 3000)
        mem.slot(2, ABS_MT_POSITION_Y, 2000)
        mem.slot(2, ABS_MT_PRESSURE, 30)
        mem.value(EV_ABS, ABS_MT_SLOT, 2)

        var events: [InputEvent] = []
        let outcome = run(mem, [
            Self.normal(Self.ev(5, 0, EV_ABS, ABS_MT_PRESSURE, 70)),
            Self.dropped(5, 10),
            Self.synced(Self.ev(5, 20, EV_ABS, ABS_MT_SLOT, 2)),
            Self.synced(Self.ev(5, 20, EV_SYN, SYN_REPORT, 0)),
            Self.end(EvdevReader.sync),
        ], into: &events)
        guard case .resynced(let slots, let at) = outcome else { return XCTFail("expected .resynced, got \(outcome)") }
        XCTAssertEqual(at, Timestamp(seconds: 5, microseconds: 20), "the resync happens at the last synced event")
        XCTAssertEqual(slots.count, 10)
        XCTAssertEqual(slots[0], SlotTruth(trackingID: 41, x: 1000, y: 900, pressure: 80))
        XCTAssertEqual(slots[1], SlotTruth(trackingID: -1, x: 0, y: 0, pressure: 0))
        XCTAssertEqual(slots[2], SlotTruth(trackingID: 43, x: 3000, y: 2000, pressure: 30))
        // The event read before the drop comes first; the current slot is restated after it; the sync
        // events themselves are gone.
        XCTAssertEqual(events, [
            InputEvent(time: Timestamp(seconds: 5, microseconds: 0), type: EventType.abs, code: AbsCode.mtPressure, value: 70),
            InputEvent(time: Timestamp(seconds: 5, microseconds: 20), type: EventType.abs, code: AbsCode.mtSlot, value: 2),
        ])
    }

    func testResyncKeepsALiveContactThroughThePipeline() throws {
        let mem = try MemoryEvdev.multiTouchScreen()
        var pipeline = try pipelineWithAContact(mem, slot: 1)

        // During the drop the finger moved; libevdev's current slot is 1.
        mem.slot(1, ABS_MT_TRACKING_ID, 7)
        mem.slot(1, ABS_MT_POSITION_X, 20)
        mem.slot(1, ABS_MT_POSITION_Y, 30)
        mem.value(EV_ABS, ABS_MT_SLOT, 1)
        var events: [InputEvent] = []
        // A partial frame read before the drop selected slot 0; the drop lost the switch back to slot 1.
        let outcome = run(mem, [
            Self.normal(Self.ev(1, 500, EV_ABS, ABS_MT_SLOT, 0)),
            Self.dropped(2, 0),
            Self.end(EvdevReader.sync),
        ], into: &events)
        guard case .resynced(let slots, let at) = outcome else { return XCTFail("expected .resynced, got \(outcome)") }
        for e in events { pipeline.handle(e) }
        pipeline.resync(slots: slots, at: at)
        XCTAssertEqual(pipeline.outputs.map(\.kind), [.touch(.moved)], "the contact carries on")
        XCTAssertEqual(pipeline.outputs.first?.x, 20)
        pipeline.clearOutputs()
        // The kernel does not name the slot again: the restated ABS_MT_SLOT keeps this on slot 1.
        let t2 = Timestamp(seconds: 2, microseconds: 100)
        pipeline.handle(InputEvent(time: t2, type: EventType.abs, code: AbsCode.mtPositionX, value: 25))
        pipeline.handle(InputEvent(time: t2, type: EventType.syn, code: SynCode.report, value: 0))
        XCTAssertEqual(pipeline.outputs.map(\.kind), [.touch(.moved)])
        XCTAssertEqual(pipeline.outputs.first?.x, 25)
    }

    func testSingleTouchResyncReportsOneSlotAndRestatesTheButton() throws {
        let mem = try MemoryEvdev.resistivePanel()
        mem.value(EV_ABS, ABS_X, 2000)
        mem.value(EV_ABS, ABS_Y, 1500)
        mem.value(EV_ABS, ABS_PRESSURE, 900)
        mem.value(EV_KEY, BTN_TOUCH, 1)
        let device = try TouchDevice(EvdevDescription.description(of: mem.dev))
        var pipeline = TouchPipeline(
            device: device, deviceID: 1, calibration: nil, settings: GestureSettings(), reportsTouches: true)

        var events: [InputEvent] = []
        let outcome = run(mem, [Self.dropped(3, 0), Self.end(EvdevReader.sync)], into: &events)
        guard case .resynced(let slots, let at) = outcome else { return XCTFail("expected .resynced, got \(outcome)") }
        XCTAssertEqual(slots.count, 1)
        XCTAssertEqual(slots[0], SlotTruth(trackingID: 0, x: 2000, y: 1500, pressure: 900))
        XCTAssertEqual(events, [InputEvent(time: at, type: EventType.key, code: KeyCode.btnTouch, value: 1)])
        for e in events { pipeline.handle(e) }
        pipeline.resync(slots: slots, at: at)
        XCTAssertEqual(pipeline.outputs.map(\.kind), [.touch(.began)])
        pipeline.clearOutputs()
        // A move without BTN_TOUCH (the kernel sends keys only on change) must not end the contact.
        let t = Timestamp(seconds: 3, microseconds: 500)
        pipeline.handle(InputEvent(time: t, type: EventType.abs, code: AbsCode.x, value: 2010))
        pipeline.handle(InputEvent(time: t, type: EventType.syn, code: SynCode.report, value: 0))
        XCTAssertEqual(pipeline.outputs.map(\.kind), [.touch(.moved)])

        mem.value(EV_KEY, BTN_TOUCH, 0)
        XCTAssertEqual(EvdevReader.slotTruth(mem.dev)[0].trackingID, -1, "lifted: no contact")
    }

    func testAResyncRestatesToolTypeAndSizeSoAPalmStaysAPalm() throws {
        let mem = try MemoryEvdev.multiTouchScreen()
        mem.abs(ABS_MT_TOOL_TYPE, 0, 2)
        mem.abs(ABS_MT_TOUCH_MAJOR, 0, 255, resolution: 20)
        var pipeline = try pipelineWithAContact(mem, slot: 0)

        // During the drop the firmware called the contact a palm; libevdev's slot says so.
        mem.slot(0, ABS_MT_TRACKING_ID, 7)
        mem.slot(0, ABS_MT_POSITION_X, 10)
        mem.slot(0, ABS_MT_POSITION_Y, 10)
        mem.slot(0, ABS_MT_TOOL_TYPE, 2)
        mem.slot(0, ABS_MT_TOUCH_MAJOR, 40)
        var events: [InputEvent] = []
        let outcome = run(mem, [Self.dropped(2, 0), Self.end(EvdevReader.sync)], into: &events)
        guard case .resynced(let slots, let at) = outcome else { return XCTFail("expected .resynced, got \(outcome)") }
        // Slot by slot: its tool type and touch major; then the current slot.
        XCTAssertEqual(events.count, 10 * 3 + 1)
        XCTAssertEqual(Array(events.prefix(3).map { [Int32($0.code), $0.value] }), [
            [Int32(AbsCode.mtSlot), 0], [Int32(AbsCode.mtToolType), 2], [Int32(AbsCode.mtTouchMajor), 40],
        ])
        for e in events { pipeline.handle(e) }
        pipeline.resync(slots: slots, at: at)
        XCTAssertEqual(pipeline.outputs.map(\.kind), [.touch(.cancelled)], "a palm now: cancelled")
        XCTAssertEqual(pipeline.tracker.diagnostics.palmsByToolType, 1)
    }

    func testProtocolADropIsPassedToTheTracker() throws {
        let mem = try MemoryEvdev(name: "Protocol A")
        mem.property(INPUT_PROP_DIRECT)
        mem.abs(ABS_MT_POSITION_X, 0, 1000)
        mem.abs(ABS_MT_POSITION_Y, 0, 1000)
        var events: [InputEvent] = []
        let outcome = run(mem, [
            Self.dropped(4, 0),
            Self.synced(Self.ev(4, 1, EV_SYN, SYN_REPORT, 0)),
            Self.end(EvdevReader.sync),
            Self.normal(Self.ev(4, 2, EV_SYN, SYN_REPORT, 0)),
            Self.end(EvdevReader.normal),
        ], into: &events)
        guard case .ok = outcome else { return XCTFail("expected .ok, got \(outcome)") }
        XCTAssertEqual(events.map(\.code), [SynCode.dropped, SynCode.report])
    }

    func testUnplugIsGoneAndKeepsTheEventsBeforeIt() throws {
        let mem = try MemoryEvdev.multiTouchScreen()
        var events: [InputEvent] = []
        let outcome = run(mem, [
            Self.normal(Self.ev(1, 0, EV_SYN, SYN_REPORT, 0)),
            Self.end(EvdevReader.normal, ENODEV),
        ], into: &events)
        guard case .gone = outcome else { return XCTFail("expected .gone, got \(outcome)") }
        XCTAssertEqual(events.count, 1)
    }

    func testOtherErrorsFailNamingTheNode() throws {
        let mem = try MemoryEvdev.multiTouchScreen()
        var events: [InputEvent] = []
        let outcome = run(mem, [Self.dropped(1, 0), Self.end(EvdevReader.sync, EIO)], into: &events)
        guard case .failed(let error) = outcome else { return XCTFail("expected .failed, got \(outcome)") }
        XCTAssertEqual(error, SystemError(call: "libevdev_next_event", subject: "/dev/input/event7", errno: EIO))
    }

    func testReadingAppendsWithoutReallocating() throws {
        let mem = try MemoryEvdev.multiTouchScreen()
        var events: [InputEvent] = []
        events.reserveCapacity(8)
        let before = events.withUnsafeBufferPointer { $0.baseAddress }
        let script = (0..<8).map { Self.normal(Self.ev(1, $0, EV_SYN, SYN_REPORT, 0)) } + [Self.end(EvdevReader.normal)]
        _ = run(mem, script, into: &events)
        XCTAssertEqual(events.count, 8)
        XCTAssertEqual(events.withUnsafeBufferPointer { $0.baseAddress }, before)
    }
}
