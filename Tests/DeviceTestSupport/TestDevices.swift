import PressureCapture
import PressureCore

/// An event at `microseconds` on the input clock, for tests that list the events a reader should give.
public func event(_ microseconds: Int64, _ type: UInt16, _ code: UInt16, _ value: Int32) -> InputEvent {
    InputEvent(time: Timestamp(microseconds: microseconds), type: type, code: code, value: value)
}

/// Devices and event scripts for tests, in the spirit of litest's device descriptions.
public enum TestDevices {
    /// A protocol B touchscreen: 10 slots, 0..4095 at 16 units/mm, pressure 0..1000.
    public static let slotted = DeviceDescription(
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
    public static var slottedWithoutPressure: DeviceDescription {
        var d = slotted
        d.name = "Test MT Touchscreen (no pressure)"
        d.absInfo[AbsCode.mtPressure] = nil
        d.absInfo[AbsCode.pressure] = nil
        return d
    }

    /// The protocol B screen whose firmware tells palms (`ABS_MT_TOOL_TYPE` finger..palm, as hid-multitouch
    /// declares it for Confidence) and contact size: `ABS_MT_TOUCH_MAJOR` 0..1000 at 20 units/mm (finer
    /// than the 16 of its surface), so the default palm size of 25 mm is 500 units.
    public static var slottedWithPalms: DeviceDescription {
        var d = slotted
        d.name = "Test MT Touchscreen (palms)"
        d.absInfo[AbsCode.mtToolType] = AbsInfo(minimum: MTTool.finger, maximum: MTTool.palm)
        d.absInfo[AbsCode.mtTouchMajor] = AbsInfo(minimum: 0, maximum: 1000, resolution: 20)
        return d
    }

    /// The protocol B screen able to hover: `ABS_MT_DISTANCE` 0..1, as hid-multitouch declares it for
    /// devices with the hovering quirk (distance 1 is in range without tip).
    public static var slottedHovering: DeviceDescription {
        var d = slotted
        d.name = "Test MT Touchscreen (hovering)"
        d.absInfo[AbsCode.mtDistance] = AbsInfo(minimum: 0, maximum: 1)
        return d
    }

    /// A resistive single-touch panel: ABS_X/Y 0..4095 without resolution, ABS_PRESSURE 0..255, BTN_TOUCH.
    public static let singleTouch = DeviceDescription(
        name: "Test Resistive Panel", properties: [InputProperty.direct],
        codes: [EventType.key: [KeyCode.btnTouch]],
        absInfo: [
            AbsCode.x: AbsInfo(minimum: 0, maximum: 4095),
            AbsCode.y: AbsInfo(minimum: 0, maximum: 4095),
            AbsCode.pressure: AbsInfo(minimum: 0, maximum: 255),
        ])

    /// The resistive panel without `BTN_TOUCH`: it touches by pressure (0..255: down at 30, up below 25).
    public static var singleTouchWithoutButton: DeviceDescription {
        var d = singleTouch
        d.name = "Test Resistive Panel (no BTN_TOUCH)"
        d.codes = [:]
        return d
    }

    /// A protocol A touchscreen without tracking ids, pressure 0..255.
    public static let anonymous = DeviceDescription(
        name: "Test Protocol A", codes: [EventType.key: [KeyCode.btnTouch]],
        absInfo: [
            AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 9600),
            AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 7200),
            AbsCode.mtPressure: AbsInfo(minimum: 0, maximum: 255),
        ])

    /// The protocol A screen with tool type, distance and touch major 0..255 at 10 units/mm (its surface has
    /// no resolution): palms above 250 units.
    public static var anonymousWithPalmsAndHover: DeviceDescription {
        var d = anonymous
        d.name = "Test Protocol A (palms, hovering)"
        d.absInfo[AbsCode.mtToolType] = AbsInfo(minimum: MTTool.finger, maximum: MTTool.palm)
        d.absInfo[AbsCode.mtTouchMajor] = AbsInfo(minimum: 0, maximum: 255, resolution: 10)
        d.absInfo[AbsCode.mtDistance] = AbsInfo(minimum: 0, maximum: 1)
        return d
    }
}

extension TestDevices {
    /// A configuration section that calibrates ``slotted`` (average touch 270 of 0..1000), so hub and
    /// region tests have force from the first touch: peek at 378 (1.4 average touches), pop at 540 (2.0).
    public static let calibrationSection = """
        [Test MT Touchscreen]
        MatchName = Test MT Touchscreen*
        PressureAverage = 270

        """

    /// ``calibrationSection`` followed by `more`, parsed.
    public static func configuration(_ more: String = "") throws -> Configuration {
        try Configuration.parse(calibrationSection + more, file: "test.conf")
    }
}

/// Builds event streams frame by frame, with explicit times in milliseconds.
public struct EventScript {
    public var events: [InputEvent] = []
    public var ms: Int64 = 0

    public init() {}

    public mutating func emit(_ type: UInt16, _ code: UInt16, _ value: Int32) {
        events.append(InputEvent(time: Timestamp(microseconds: ms * 1000), type: type, code: code, value: value))
    }

    public mutating func abs(_ code: UInt16, _ value: Int32) { emit(EventType.abs, code, value) }

    /// One protocol B frame at `ms`: `body` adds slot events; a SYN_REPORT closes it.
    public mutating func frame(at ms: Int64, _ body: (inout EventScript) -> Void) {
        self.ms = ms
        body(&self)
        emit(EventType.syn, SynCode.report, 0)
    }

    public mutating func slot(
        _ s: Int32, id: Int32? = nil, x: Int32? = nil, y: Int32? = nil, p: Int32? = nil, tool: Int32? = nil,
        major: Int32? = nil, distance: Int32? = nil
    ) {
        abs(AbsCode.mtSlot, s)
        if let id { abs(AbsCode.mtTrackingID, id) }
        if let tool { abs(AbsCode.mtToolType, tool) }
        if let x { abs(AbsCode.mtPositionX, x) }
        if let y { abs(AbsCode.mtPositionY, y) }
        if let p { abs(AbsCode.mtPressure, p) }
        if let major { abs(AbsCode.mtTouchMajor, major) }
        if let distance { abs(AbsCode.mtDistance, distance) }
    }

    /// One protocol A contact, closed with `SYN_MT_REPORT`.
    public mutating func point(
        _ x: Int32, _ y: Int32, p: Int32 = 10, tool: Int32? = nil, major: Int32? = nil, distance: Int32? = nil
    ) {
        abs(AbsCode.mtPositionX, x)
        abs(AbsCode.mtPositionY, y)
        abs(AbsCode.mtPressure, p)
        if let tool { abs(AbsCode.mtToolType, tool) }
        if let major { abs(AbsCode.mtTouchMajor, major) }
        if let distance { abs(AbsCode.mtDistance, distance) }
        emit(EventType.syn, SynCode.mtReport, 0)
    }

    /// One single-touch frame's events.
    public mutating func single(x: Int32? = nil, y: Int32? = nil, p: Int32? = nil, touch: Int32? = nil) {
        if let x { abs(AbsCode.x, x) }
        if let y { abs(AbsCode.y, y) }
        if let p { abs(AbsCode.pressure, p) }
        if let touch { emit(EventType.key, KeyCode.btnTouch, touch) }
    }

    public mutating func dropped() { emit(EventType.syn, SynCode.dropped, 0) }
}

extension TouchPipeline {
    /// A pipeline on a test device with its prior (45% of the range) used as it is, as with learning off.
    public static func test(
        _ d: DeviceDescription, touches: Bool = true, settings: GestureSettings = GestureSettings(),
        tracking: TrackerSettings = TrackerSettings()
    ) throws -> TouchPipeline {
        let device = try TouchDevice(d)
        let setup = device.pressureAxis.map { ForceModel.Setup.prior(ForceCalibration.uncalibrated(axis: $0)) } ?? .none
        return TouchPipeline(
            device: device, deviceID: 1, force: setup, settings: settings, reportsTouches: touches, tracking: tracking)
    }

    /// Replays events and returns compact `type[/phase]#contact` names of everything emitted.
    public mutating func run(_ events: [InputEvent]) -> [String] {
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

extension ContactTracker {
    /// Feeds events; returns every change as `phase@index:x,y,pressure`.
    public mutating func run(_ events: [InputEvent]) -> [String] {
        var out: [String] = []
        for e in events where handle(e) {
            for c in changes { out.append("\(c.phase)@\(c.index):\(c.x),\(c.y),\(c.pressure)") }
        }
        return out
    }

    /// Feeds events; returns every change as `ms phase@index`, stamped with its frame's time.
    public mutating func timeline(_ events: [InputEvent]) -> [String] {
        var out: [String] = []
        for e in events where handle(e) {
            for c in changes { out.append("\(e.time.microseconds / 1000) \(c.phase)@\(c.index)") }
        }
        return out
    }
}
