/// Filter mode's one multi-touch slot for a single-touch panel (`docs/filter.md`): a resistive panel
/// (`ABS_X/Y`, `ABS_PRESSURE`, maybe `BTN_TOUCH`, no slots) has no tool type to turn into a palm, so its
/// clone gets one protocol B slot beside the panel's own axes, and the touch in that slot can be cancelled
/// like any other. Every event of the panel passes as it is; at each `SYN_REPORT` the slot follows what the
/// tracker made of the frame (``TouchPipeline/isHeld(slot:)``: a touch down, or one it ignores until the
/// lift), so the clone's contact is pressured's own, hysteresis on pressure included, and the slot the hub
/// names for a cancel is the clone's slot 0.
///
/// One transition function, ``translate(_:held:into:)``, at each frame's end:
///
/// | state \ frame | not held                                   | held                                             |
/// |---------------|--------------------------------------------|--------------------------------------------------|
/// | up            | up                                         | down(id): tracking id, position, pressure (and `BTN_TOUCH` 1 where the panel has none) |
/// | down(id)      | up: tracking id -1 (and `BTN_TOUCH` 0 where the panel has none) | down(id): the position and pressure that changed |
///
/// Tracking ids count up from 0 and wrap below 65536, as the kernel's do.
public struct SingleTouchSlot: Sendable {
    public enum State: Hashable, Sendable {
        case up
        case down(trackingID: Int32)
    }

    public private(set) var state: State = .up
    /// The panel has no `BTN_TOUCH`: the clone's, which libinput and udev want of a touchscreen, is made
    /// here, following the slot.
    let makesTouchButton: Bool
    /// The panel has `ABS_PRESSURE`: the slot carries it as `ABS_MT_PRESSURE`.
    let carriesPressure: Bool
    private var x: Int32 = 0
    private var y: Int32 = 0
    private var pressure: Int32 = 0
    /// What changed since the last frame's end (a frame may arrive in more than one read).
    private var changed: (x: Bool, y: Bool, pressure: Bool) = (false, false, false)
    private var nextTrackingID: Int32 = 0
    static let trackingIDLimit: Int32 = 65536

    public init(panel: DeviceDescription) {
        makesTouchButton = !panel.has(type: EventType.key, code: KeyCode.btnTouch)
        carriesPressure = panel.axis(AbsCode.pressure) != nil
    }

    /// What the clone of `panel` declares: the panel itself, plus one slot (`ABS_MT_SLOT` 0..0), a tracking
    /// id, positions over the panel's `ABS_X/Y` ranges, pressure over `ABS_PRESSURE`'s, a tool type (so a
    /// palm can be said), `BTN_TOUCH`, and `INPUT_PROP_DIRECT` (a touchscreen, for udev and libinput). No
    /// axis has fuzz: the kernel filtered the panel's values already, and would filter them again on the
    /// way through the clone, dropping or averaging some.
    public static func cloneDescription(of panel: DeviceDescription) -> DeviceDescription {
        var d = panel
        let abs = EventType.abs
        func add(_ code: UInt16, _ info: AbsInfo?) {
            guard let info else { return }
            d.codes[abs, default: []].insert(code)
            d.absInfo[code] = info
        }
        add(AbsCode.mtSlot, AbsInfo(minimum: 0, maximum: 0))
        add(AbsCode.mtTrackingID, AbsInfo(minimum: 0, maximum: trackingIDLimit - 1))
        add(AbsCode.mtPositionX, panel.axis(AbsCode.x))
        add(AbsCode.mtPositionY, panel.axis(AbsCode.y))
        add(AbsCode.mtPressure, panel.axis(AbsCode.pressure))
        add(AbsCode.mtToolType, AbsInfo(minimum: 0, maximum: MTTool.maximum))
        d.codes[EventType.key, default: []].insert(KeyCode.btnTouch)
        d.properties.insert(InputProperty.direct)
        for code in d.absInfo.keys { d.absInfo[code]?.fuzz = 0 }
        return d
    }

    /// Appends `events` (a frame of the panel, or part of one) to `out` as the clone's: each event as it
    /// is, and before the `SYN_REPORT` that ends the frame, the slot's events for the frame the tracker
    /// judged `held` (the table above). A part without its `SYN_REPORT` only moves the slot's values on.
    public mutating func translate(_ events: ArraySlice<InputEvent>, held: Bool, into out: inout [InputEvent]) {
        for e in events {
            if e.type == EventType.abs {
                switch e.code {
                case AbsCode.x: x = e.value; changed.x = true
                case AbsCode.y: y = e.value; changed.y = true
                case AbsCode.pressure: pressure = e.value; changed.pressure = true
                default: break
                }
            } else if e.type == EventType.syn && e.code == SynCode.report {
                endFrame(held: held, at: e.time, into: &out)
            }
            out.append(e)
        }
    }

    private mutating func endFrame(held: Bool, at time: Timestamp, into out: inout [InputEvent]) {
        func put(_ type: UInt16, _ code: UInt16, _ value: Int32) {
            out.append(InputEvent(time: time, type: type, code: code, value: value))
        }
        switch (state, held) {
        case (.up, false):
            break
        case (.up, true):
            let id = nextTrackingID
            nextTrackingID = (nextTrackingID + 1) % Self.trackingIDLimit
            state = .down(trackingID: id)
            put(EventType.abs, AbsCode.mtTrackingID, id)
            put(EventType.abs, AbsCode.mtPositionX, x)
            put(EventType.abs, AbsCode.mtPositionY, y)
            if carriesPressure { put(EventType.abs, AbsCode.mtPressure, pressure) }
            if makesTouchButton { put(EventType.key, KeyCode.btnTouch, 1) }
        case (.down, true):
            if changed.x { put(EventType.abs, AbsCode.mtPositionX, x) }
            if changed.y { put(EventType.abs, AbsCode.mtPositionY, y) }
            if changed.pressure && carriesPressure { put(EventType.abs, AbsCode.mtPressure, pressure) }
        case (.down, false):
            state = .up
            put(EventType.abs, AbsCode.mtTrackingID, -1)
            if makesTouchButton { put(EventType.key, KeyCode.btnTouch, 0) }
        }
        changed = (false, false, false)
    }
}
