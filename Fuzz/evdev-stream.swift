// libFuzzer target: arbitrary evdev event streams into the core (TouchPipeline), with the wire format's
// invariants checked after every call (Support/Invariants.swift): every contact ends once, every peek
// ends in one pop or dismiss, force stays within its bounds, nothing follows a contact's end.
//
// The bytes are read as a small program rather than raw `struct input_event`s, because raw events almost
// never hit the codes the tracker cares about; this way every input is a stream of plausible-but-hostile
// events (any slot number, tracking id, value; SYN_REPORTs missing; SYN_DROPPED; resyncs; settings
// changing mid-touch; timer ticks), and libFuzzer's comparisons steer the values.

import PressureCore

// The program (Fuzz/make-seeds.py writes fixtures in it): a device header (fuzzDevice), a flags byte,
// then one op byte per step; op & 0x1f picks the step, op >> 5 advances the clock by that many ms.
//   0-9 ABS (Int8 value) | 22-26 ABS (Int16) | 27-31 ABS (Int32): code byte picks from interestingAbs
//   10-12 SYN_REPORT | 13 SYN_DROPPED | 14 SYN_MT_REPORT | 15 BTN_TOUCH/BTN_TOOL_FINGER | 16 any event
//   17 timer tick | 18 new settings | 19 resync | 20 cancel all | 21 clock jump (Int16 ms, may go back)

/// Reads the input front to back; runs out as zeros, so every input is a valid program.
struct ByteReader {
    let data: UnsafeBufferPointer<UInt8>
    var position = 0

    var atEnd: Bool { position >= data.count }

    mutating func byte() -> UInt8 {
        guard position < data.count else { return 0 }
        defer { position += 1 }
        return data[position]
    }

    mutating func int16() -> Int16 { Int16(bitPattern: UInt16(byte()) | UInt16(byte()) << 8) }

    mutating func int32() -> Int32 {
        Int32(bitPattern: UInt32(byte()) | UInt32(byte()) << 8 | UInt32(byte()) << 16 | UInt32(byte()) << 24)
    }
}

/// The device under test: one of the three contact protocols, with axis ranges from the input (so odd
/// ranges such as min > max or a single-value pressure axis are reached too).
func fuzzDevice(_ r: inout ByteReader) -> DeviceDescription {
    let kind = r.byte()
    let slotMax = Int32(r.byte() % 64)
    let pressure = AbsInfo(minimum: Int32(r.int16()), maximum: Int32(r.int16()))
    let xy = AbsInfo(minimum: 0, maximum: 4095, resolution: Int32(r.byte() % 32))
    var abs: [UInt16: AbsInfo] = [AbsCode.x: xy, AbsCode.y: xy]
    switch kind % 4 {
    case 0, 1:  // protocol B, with or without pressure
        abs[AbsCode.mtSlot] = AbsInfo(minimum: 0, maximum: slotMax)
        abs[AbsCode.mtTrackingID] = AbsInfo(minimum: 0, maximum: 65535)
        abs[AbsCode.mtPositionX] = xy
        abs[AbsCode.mtPositionY] = xy
        if kind % 4 == 0 { abs[AbsCode.mtPressure] = pressure }
    case 2:  // single touch (resistive): ABS_X/Y/PRESSURE and BTN_TOUCH
        abs[AbsCode.pressure] = pressure
    default:  // protocol A: no slots, no tracking ids
        abs[AbsCode.mtPositionX] = xy
        abs[AbsCode.mtPositionY] = xy
        abs[AbsCode.mtPressure] = pressure
    }
    return DeviceDescription(
        name: "fuzz", properties: [InputProperty.direct], codes: [EventType.key: [KeyCode.btnTouch]], absInfo: abs)
}

/// Codes the tracker interprets, so most ABS events hit one of them.
let interestingAbs: [UInt16] = [
    AbsCode.mtSlot, AbsCode.mtTrackingID, AbsCode.mtPositionX, AbsCode.mtPositionY, AbsCode.mtPressure,
    AbsCode.x, AbsCode.y, AbsCode.pressure, AbsCode.mtTouchMajor, AbsCode.mtToolType,
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEvdevStream(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var r = ByteReader(data: UnsafeBufferPointer(start: data, count: size))
    guard let device = try? TouchDevice(fuzzDevice(&r)) else { return 0 }
    let flags = r.byte()
    var settings = GestureSettings(
        forceTouchEnabled: flags & 1 == 0, sensitivity: Sensitivity.allCases[Int(flags >> 1) % 3])
    // The calibration comes either from the axis (the default) or straight from the input; an invalid
    // one is refused by ForceCalibration's initialiser, as the configuration parser would.
    var calibration = device.pressureAxis.map { ForceCalibration.uncalibrated(axis: $0) }
    if flags & 8 != 0, device.pressureAxis != nil {
        calibration = ForceCalibration(floor: Int32(r.int16()), average: Int32(r.int16()), top: Int32(r.int16()))
    }
    let touches = flags & 16 == 0
    // The daemon's default: the average touch learned from the stream's own contacts (flag 32), with the
    // learner's guards, thresholds applied between contacts and announcements; else used as it is.
    let setup: ForceModel.Setup = calibration.map { flags & 32 != 0 ? .learning($0, nil) : .configured($0) } ?? .none
    var pipeline = TouchPipeline(
        device: device, deviceID: 1, force: setup, settings: settings, reportsTouches: touches)
    var check = FuzzInvariants(name: "evdev-stream", touches: touches)
    var now = Timestamp(microseconds: 1_000_000)

    func drain(_ pipeline: inout TouchPipeline) {
        for e in pipeline.outputs { check.see(e) }
        pipeline.clearOutputs()
    }

    var steps = 0
    while !r.atEnd, steps < 8192 {
        steps += 1
        let op = r.byte()
        // A frame's events share a time; the clock moves on by (op >> 5) ms per event, as a device's does.
        now = Timestamp(microseconds: now.microseconds + Int64(op >> 5) * 1000)
        // The daemon ticks in any long-press deadline that is due before handling the next event.
        if let due = pipeline.nextDeadline, due <= now {
            pipeline.tick(now)
            drain(&pipeline)
        }
        let event: InputEvent?
        switch op & 0x1f {
        case 0...9, 22...31:  // an ABS code the tracker reads (mostly), value small, 16-bit or full range
            let code = interestingAbs[Int(r.byte()) % interestingAbs.count]
            let value: Int32
            switch op & 0x1f {
            case 0...9: value = Int32(Int8(bitPattern: r.byte()))
            case 22...26: value = Int32(r.int16())
            default: value = r.int32()
            }
            event = InputEvent(time: now, type: EventType.abs, code: code, value: value)
        case 10, 11, 12:
            event = InputEvent(time: now, type: EventType.syn, code: SynCode.report, value: 0)
        case 13:
            event = InputEvent(time: now, type: EventType.syn, code: SynCode.dropped, value: 0)
        case 14:
            event = InputEvent(time: now, type: EventType.syn, code: SynCode.mtReport, value: 0)
        case 15:
            let code = r.byte() & 1 == 0 ? KeyCode.btnTouch : KeyCode.btnToolFinger
            event = InputEvent(time: now, type: EventType.key, code: code, value: Int32(r.byte() % 3))
        case 16:  // any type, code and value at all
            let type = UInt16(r.byte())
            let code = UInt16(bitPattern: r.int16())
            event = InputEvent(time: now, type: type, code: code, value: r.int32())
        case 17:  // the owner's timer, at any later time
            pipeline.tick(Timestamp(microseconds: now.microseconds + Int64(r.byte()) * 10_000))
            event = nil
        case 18:  // SIGHUP / `set`: new settings mid-touch
            let s = r.byte()
            settings.forceTouchEnabled = s & 1 == 0
            settings.sensitivity = Sensitivity.allCases[Int(s >> 1) % 3]
            pipeline.apply(settings: settings, force: s & 0x80 != 0 ? .none : setup)
            event = nil
        case 19:  // libevdev resync after SYN_DROPPED: the true slot state, any count of slots
            let count = Int(r.byte() % 66)
            var truth: [SlotTruth] = []
            for _ in 0..<count {
                truth.append(SlotTruth(
                    trackingID: Int32(Int8(bitPattern: r.byte())), x: Int32(r.int16()), y: Int32(r.int16()),
                    pressure: Int32(r.int16())))
            }
            pipeline.resync(slots: truth, at: now)
            event = nil
        case 20:  // the device vanished, then came back as the same pipeline (what a replay end does)
            pipeline.cancelAll(at: now)
            event = nil
        case 21:  // the clock jumps, possibly backwards (a capture's timestamps are not to be trusted)
            now = Timestamp(microseconds: now.microseconds + Int64(r.int16()) * 1000)
            event = nil
        default:
            event = nil
        }
        if let event { pipeline.handle(event) }
        drain(&pipeline)
    }
    // The end of the stream is the device going away: everything still down is cancelled.
    if let due = pipeline.nextDeadline, due <= now { pipeline.tick(now) }
    pipeline.cancelAll(at: now)
    drain(&pipeline)
    check.finish()
    return 0
}
