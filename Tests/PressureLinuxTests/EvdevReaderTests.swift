import CLibevdev
import Glibc
import PressureCore
import XCTest

@testable import PressureLinux

/// The read loop driven by scripted `read(2)`s and a scripted `libevdev_next_event` (the resync's), with
/// the post-resync state held by an in-memory libevdev.
final class EvdevReaderTests: XCTestCase {
    /// One scripted `read(2)`: the events it returns, a count of bytes that is no whole number of
    /// events, or the errno it fails with.
    enum Read {
        case events([input_event])
        case bytes(Int)
        case fails(Int32)
    }

    /// One scripted return of `libevdev_next_event`: the flags it expects, the status, the event.
    struct Step {
        var flags: UInt32
        var status: Int32
        var event: input_event
    }

    static func ev(_ sec: Int, _ usec: Int, _ type: Int32, _ code: Int32, _ value: Int32) -> input_event {
        input_event(time: timeval(tv_sec: sec, tv_usec: usec), type: UInt16(type), code: UInt16(code), value: value)
    }

    static func dropped(_ sec: Int, _ usec: Int) -> input_event { ev(sec, usec, EV_SYN, SYN_DROPPED, 0) }
    static func report(_ sec: Int, _ usec: Int) -> input_event { ev(sec, usec, EV_SYN, SYN_REPORT, 0) }
    /// libevdev told to sync: it says so.
    static let forced = Step(flags: EvdevReader.forceSync, status: EvdevReader.syncStatus, event: input_event())
    static func synced(_ e: input_event) -> Step { Step(flags: EvdevReader.sync, status: EvdevReader.syncStatus, event: e) }
    static func end(_ flags: UInt32, _ errno: Int32 = EAGAIN) -> Step { Step(flags: flags, status: -errno, event: input_event()) }

    /// Runs the reader over the scripts with a buffer of `capacity` events; every step must be taken.
    func run(
        _ mem: MemoryEvdev, reads: [Read], sync: [Step] = [], capacity: Int = 8, into events: inout [InputEvent]
    ) -> DeviceReadOutcome {
        var reads = reads[...]
        var steps = sync[...]
        let buffer = UnsafeMutableBufferPointer<input_event>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        let size = MemoryLayout<input_event>.stride
        let outcome = EvdevReader.read(
            mem.dev, node: "/dev/input/event7", into: &events, buffer: buffer,
            readBatch: { into, bytes in
                XCTAssertEqual(bytes, capacity * size, "a read asks for the whole buffer")
                guard let read = reads.popFirst() else {
                    XCTFail("read past the script")
                    errno = EAGAIN
                    return -1
                }
                switch read {
                case .events(let list):
                    XCTAssertLessThanOrEqual(list.count, capacity)
                    let slots = into.bindMemory(to: input_event.self, capacity: capacity)
                    for (k, e) in list.enumerated() { slots[k] = e }
                    return list.count * size
                case .bytes(let n):
                    return n
                case .fails(let e):
                    errno = e
                    return -1
                }
            },
            next: { flags, ev in
                guard let step = steps.popFirst() else {
                    XCTFail("libevdev read past the script")
                    return -EAGAIN
                }
                XCTAssertEqual(flags, step.flags, "libevdev's read flags")
                ev = step.event
                return step.status
            })
        XCTAssertTrue(reads.isEmpty, "reads not taken: \(reads.count)")
        XCTAssertTrue(steps.isEmpty, "libevdev steps not taken: \(steps.count)")
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
        // A full batch is read again; EINTR is retried; a batch the kernel did not fill ends the reading.
        let outcome = run(mem, reads: [
            .events([Self.ev(12, 345_678, EV_ABS, ABS_MT_POSITION_X, 100), Self.report(12, 345_678)]),
            .fails(EINTR),
            .events([Self.report(12, 350_000)]),
        ], capacity: 2, into: &events)
        guard case .ok = outcome else { return XCTFail("expected .ok, got \(outcome)") }
        XCTAssertEqual(events, [
            InputEvent(time: Timestamp(microseconds: 12_345_678), type: EventType.abs, code: AbsCode.mtPositionX, value: 100),
            InputEvent(time: Timestamp(microseconds: 12_345_678), type: EventType.syn, code: SynCode.report, value: 0),
            InputEvent(time: Timestamp(microseconds: 12_350_000), type: EventType.syn, code: SynCode.report, value: 0),
        ])
    }

    func testABatchNotFilledIsTheLastRead() throws {
        // One read a wake-up, not a second one to be told EAGAIN (the script has no second read).
        let mem = try MemoryEvdev.multiTouchScreen()
        var events: [InputEvent] = []
        let outcome = run(mem, reads: [.events([Self.report(1, 0), Self.report(1, 4000)])], into: &events)
        guard case .ok = outcome else { return XCTFail("expected .ok, got \(outcome)") }
        XCTAssertEqual(events.count, 2)
    }

    func testNothingToReadIsOK() throws {
        let mem = try MemoryEvdev.multiTouchScreen()
        var events: [InputEvent] = []
        let outcome = run(mem, reads: [.events([Self.report(1, 0)]), .fails(EAGAIN)], capacity: 1, into: &events)
        guard case .ok = outcome else { return XCTFail("expected .ok, got \(outcome)") }
        XCTAssertEqual(events.count, 1)
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
        let outcome = run(mem, reads: [
            // The event after the drop is superseded by the state libevdev reads.
            .events([Self.ev(5, 0, EV_ABS, ABS_MT_PRESSURE, 70), Self.dropped(5, 10), Self.ev(5, 15, EV_ABS, ABS_MT_PRESSURE, 75)]),
        ], sync: [
            Self.forced,
            Self.synced(Self.ev(5, 20, EV_ABS, ABS_MT_SLOT, 2)),
            Self.synced(Self.report(5, 20)),
            Self.end(EvdevReader.sync),
        ], into: &events)
        guard case .resynced(let slots, let at) = outcome else { return XCTFail("expected .resynced, got \(outcome)") }
        XCTAssertEqual(at, Timestamp(seconds: 5, microseconds: 20), "the resync happens at the last event known")
        XCTAssertEqual(slots.count, 10)
        XCTAssertEqual(slots[0], SlotTruth(trackingID: 41, x: 1000, y: 900, pressure: 80))
        XCTAssertEqual(slots[1], SlotTruth(trackingID: -1, x: 0, y: 0, pressure: 0))
        XCTAssertEqual(slots[2], SlotTruth(trackingID: 43, x: 3000, y: 2000, pressure: 30))
        // The event read before the drop comes first; the current slot is restated after it; the event after
        // the drop and the sync events themselves are gone.
        XCTAssertEqual(events, [
            InputEvent(time: Timestamp(seconds: 5, microseconds: 0), type: EventType.abs, code: AbsCode.mtPressure, value: 70),
            InputEvent(time: Timestamp(seconds: 5, microseconds: 20), type: EventType.abs, code: AbsCode.mtSlot, value: 2),
        ])
    }

    func testTheResyncIsNoEarlierThanTheEventsItSupersedes() throws {
        // libevdev's sync events carry the time of the last event libevdev read itself, which may be long
        // ago: the events the kernel queued after the drop say when the state was read.
        let mem = try MemoryEvdev.multiTouchScreen()
        var events: [InputEvent] = []
        let outcome = run(mem, reads: [
            .events([Self.dropped(7, 0), Self.ev(7, 900, EV_ABS, ABS_MT_POSITION_X, 5), Self.report(7, 900)]),
        ], sync: [Self.forced, Self.synced(Self.report(0, 0)), Self.end(EvdevReader.sync)], into: &events)
        guard case .resynced(_, let at) = outcome else { return XCTFail("expected .resynced, got \(outcome)") }
        XCTAssertEqual(at, Timestamp(seconds: 7, microseconds: 900))
        XCTAssertEqual(events.map(\.code), [AbsCode.mtSlot], "only the restated slot")
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
        let outcome = run(mem, reads: [.events([Self.ev(1, 500, EV_ABS, ABS_MT_SLOT, 0), Self.dropped(2, 0)])],
                          sync: [Self.forced, Self.end(EvdevReader.sync)], into: &events)
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
        let outcome = run(mem, reads: [.events([Self.dropped(3, 0)])], sync: [Self.forced, Self.end(EvdevReader.sync)],
                          into: &events)
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
        let outcome = run(mem, reads: [.events([Self.dropped(2, 0)])], sync: [Self.forced, Self.end(EvdevReader.sync)],
                          into: &events)
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
        // The drop goes to the tracker, what followed it in the batch does not (libevdev's sync drained the
        // rest), and reading goes on.
        let outcome = run(mem, reads: [
            .events([Self.dropped(4, 0), Self.report(4, 1)]),
            .events([Self.report(4, 2)]),
        ], sync: [Self.forced, Self.synced(Self.report(4, 1)), Self.end(EvdevReader.sync)], capacity: 2, into: &events)
        guard case .ok = outcome else { return XCTFail("expected .ok, got \(outcome)") }
        XCTAssertEqual(events.map(\.code), [SynCode.dropped, SynCode.report])
        XCTAssertEqual(events.last?.time, Timestamp(seconds: 4, microseconds: 2))
    }

    func testUnplugIsGoneAndKeepsTheEventsBeforeIt() throws {
        let mem = try MemoryEvdev.multiTouchScreen()
        var events: [InputEvent] = []
        let outcome = run(mem, reads: [.events([Self.report(1, 0)]), .fails(ENODEV)], capacity: 1, into: &events)
        guard case .gone = outcome else { return XCTFail("expected .gone, got \(outcome)") }
        XCTAssertEqual(events.count, 1)
    }

    func testUnplugDuringTheResyncIsGone() throws {
        let mem = try MemoryEvdev.multiTouchScreen()
        var events: [InputEvent] = []
        let outcome = run(mem, reads: [.events([Self.report(1, 0), Self.dropped(1, 10)])],
                          sync: [Self.end(EvdevReader.forceSync, ENODEV)], into: &events)
        guard case .gone = outcome else { return XCTFail("expected .gone, got \(outcome)") }
        XCTAssertEqual(events.count, 1)
    }

    func testOtherErrorsFailNamingTheNode() throws {
        let mem = try MemoryEvdev.multiTouchScreen()
        var events: [InputEvent] = []
        let outcome = run(mem, reads: [.events([Self.dropped(1, 0)])], sync: [Self.forced, Self.end(EvdevReader.sync, EIO)],
                          into: &events)
        guard case .failed(let error) = outcome else { return XCTFail("expected .failed, got \(outcome)") }
        XCTAssertEqual(error, SystemError(call: "libevdev_next_event", subject: "/dev/input/event7", errno: EIO))

        let read = run(mem, reads: [.fails(EIO)], into: &events)
        guard case .failed(let readError) = read else { return XCTFail("expected .failed, got \(read)") }
        XCTAssertEqual(readError, SystemError(call: "read", subject: "/dev/input/event7", errno: EIO))
    }

    func testBytesThatAreNoWholeEventsFail() throws {
        let mem = try MemoryEvdev.multiTouchScreen()
        var events: [InputEvent] = []
        let outcome = run(mem, reads: [.bytes(10)], into: &events)
        guard case .failed(let error) = outcome else { return XCTFail("expected .failed, got \(outcome)") }
        XCTAssertEqual(error.errno, EIO)
        XCTAssertTrue(error.call.contains("10 bytes"), error.call)
        XCTAssertTrue(events.isEmpty)
    }

    func testReadingAppendsWithoutReallocating() throws {
        let mem = try MemoryEvdev.multiTouchScreen()
        var events: [InputEvent] = []
        events.reserveCapacity(8)
        let before = events.withUnsafeBufferPointer { $0.baseAddress }
        _ = run(mem, reads: [.events((0..<8).map { Self.report(1, $0) }), .fails(EAGAIN)], into: &events)
        XCTAssertEqual(events.count, 8)
        XCTAssertEqual(events.withUnsafeBufferPointer { $0.baseAddress }, before)
    }
}
