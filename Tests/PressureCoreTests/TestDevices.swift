@testable import PressureCore

/// An event at `microseconds` on the input clock, for tests that list the events a reader should give.
func event(_ microseconds: Int64, _ type: UInt16, _ code: UInt16, _ value: Int32) -> InputEvent {
    InputEvent(time: Timestamp(microseconds: microseconds), type: type, code: code, value: value)
}

/// Devices and event scripts for tests, in the spirit of litest's device descriptions.
enum TestDevices {
    /// A protocol B touchscreen: 10 slots, 0..4095 at 16 units/mm, pressure 0..1000.
    static let slotted = DeviceDescription(
        name: "Test MT Touchscreen", identity: DeviceIdentity(bus: 0x03, vendor: 0x1234, product: 0x5678),
        properties: [InputProperty.direct],
        codes: [EventType.key: [KeyCode.btnTouch]],
        absInfo: [
            AbsCode.x: AbsInfo(minimum: 0, maximum: 4095, resolution: 16),
            AbsCode.y: AbsInfo(minimum: 0, maximum: 4095, resolution: 16),
            AbsCode.pressure: AbsInfo(minimum: 0, maximum: 1000),
            AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 9),
            AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 4095, resolution: 16),
            AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 4095, resolution: 16),
            AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
            AbsCode.mtPressure: AbsInfo(minimum: 0, maximum: 1000),
        ])

    /// The same screen without any pressure axis.
    static var slottedWithoutPressure: DeviceDescription {
        var d = slotted
        d.name = "Test MT Touchscreen (no pressure)"
        d.absInfo[AbsCode.mtPressure] = nil
        d.absInfo[AbsCode.pressure] = nil
        return d
    }

    /// A resistive single-touch panel: ABS_X/Y 0..4095 without resolution, ABS_PRESSURE 0..255, BTN_TOUCH.
    static let singleTouch = DeviceDescription(
        name: "Test Resistive Panel", properties: [InputProperty.direct],
        codes: [EventType.key: [KeyCode.btnTouch]],
        absInfo: [
            AbsCode.x: AbsInfo(minimum: 0, maximum: 4095),
            AbsCode.y: AbsInfo(minimum: 0, maximum: 4095),
            AbsCode.pressure: AbsInfo(minimum: 0, maximum: 255),
        ])

    /// A protocol A touchscreen without tracking ids, pressure 0..255.
    static let anonymous = DeviceDescription(
        name: "Test Protocol A", codes: [EventType.key: [KeyCode.btnTouch]],
        absInfo: [
            AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 9600),
            AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 7200),
            AbsCode.mtPressure: AbsInfo(minimum: 0, maximum: 255),
        ])
}

/// Builds event streams frame by frame, with explicit times in milliseconds.
struct EventScript {
    var events: [InputEvent] = []
    var ms: Int64 = 0

    mutating func emit(_ type: UInt16, _ code: UInt16, _ value: Int32) {
        events.append(InputEvent(time: Timestamp(microseconds: ms * 1000), type: type, code: code, value: value))
    }

    mutating func abs(_ code: UInt16, _ value: Int32) { emit(EventType.abs, code, value) }

    /// One protocol B frame at `ms`: `body` adds slot events; a SYN_REPORT closes it.
    mutating func frame(at ms: Int64, _ body: (inout EventScript) -> Void) {
        self.ms = ms
        body(&self)
        emit(EventType.syn, SynCode.report, 0)
    }

    mutating func slot(_ s: Int32, id: Int32? = nil, x: Int32? = nil, y: Int32? = nil, p: Int32? = nil) {
        abs(AbsCode.mtSlot, s)
        if let id { abs(AbsCode.mtTrackingID, id) }
        if let x { abs(AbsCode.mtPositionX, x) }
        if let y { abs(AbsCode.mtPositionY, y) }
        if let p { abs(AbsCode.mtPressure, p) }
    }

    mutating func dropped() { emit(EventType.syn, SynCode.dropped, 0) }
}

extension TouchPipeline {
    /// A pipeline on a test device with uncalibrated defaults.
    static func test(_ d: DeviceDescription, touches: Bool = true, settings: GestureSettings = GestureSettings())
        throws -> TouchPipeline
    {
        let device = try TouchDevice(d)
        let cal = device.pressureAxis.map { ForceCalibration.uncalibrated(axis: $0) }
        return TouchPipeline(device: device, deviceID: 1, calibration: cal, settings: settings, reportsTouches: touches)
    }

    /// Replays events and returns compact `type[/phase]#contact` names of everything emitted.
    mutating func run(_ events: [InputEvent]) -> [String] {
        var names: [String] = []
        CaptureReplay.run(events, through: &self) { outputs, _ in
            for e in outputs {
                switch e.kind {
                case .gesture(let g): names.append("\(g.rawValue)#\(e.contact)")
                case .touch(let p): names.append("\(p.rawValue)#\(e.contact)")
                }
            }
        }
        return names
    }
}
