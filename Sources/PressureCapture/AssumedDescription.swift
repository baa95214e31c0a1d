import PressureCore

/// The device a log without a description must have been, worked out from its events, every guess put
/// into words for ``Capture/assumptions`` (most evtest and `getevent` logs in bug reports have no header):
/// - pressure (`ABS_PRESSURE`, `ABS_MT_PRESSURE`) and contact size (`ABS_MT_TOUCH_*`, `ABS_MT_WIDTH_*`):
///   0..255, what nearly every panel declares (or up to the largest value seen); `ABS_MT_TRACKING_ID`
///   0..65535; every other axis: 0 (or the smallest value seen, if negative) to the largest seen, at least 1;
/// - `SYN_MT_REPORT` seen → protocol A; else `ABS_MT_SLOT` seen → slots 0..the largest seen; else
///   (Android's "protocol B without slots") one slot, `ABS_MT_SLOT` 0..0, each frame a change to the last;
/// - a touchpad's keys seen (`BTN_TOOL_FINGER`, the multi-finger tools, `BTN_LEFT`): `INPUT_PROP_POINTER`;
///   otherwise a touchscreen: `INPUT_PROP_DIRECT`.
enum AssumedDescription {
    /// What the events show about the device that sent them: the codes used, each axis's values. Gathered
    /// an event at a time (``see(_:)``), so a first pass over a long log keeps this and not the events.
    struct Evidence {
        /// Type and code (`type << 16 | code`) of every event that is neither `EV_ABS` nor `EV_SYN`.
        private var keys: Set<UInt32> = []
        /// Bit per `ABS_*` code seen, with the smallest and largest value of each.
        var absSeen: UInt64 = 0
        var minimum = [Int32](repeating: .max, count: AbsCode.count)
        var maximum = [Int32](repeating: .min, count: AbsCode.count)
        var sawMTReport = false

        init() {}

        mutating func see(_ e: InputEvent) {
            if e.type == EventType.abs, Int(e.code) < AbsCode.count {
                let c = Int(e.code)
                absSeen |= 1 << UInt64(c)
                minimum[c] = min(minimum[c], e.value)
                maximum[c] = max(maximum[c], e.value)
            } else if e.type == EventType.syn {
                if e.code == SynCode.mtReport { sawMTReport = true }
            } else {
                keys.insert(UInt32(e.type) << 16 | UInt32(e.code))
            }
        }

        /// Codes seen, by type (`EV_SYN` left out: every device has it).
        var seen: [UInt16: Set<UInt16>] {
            var seen: [UInt16: Set<UInt16>] = [:]
            for k in keys { seen[UInt16(k >> 16), default: []].insert(UInt16(k & 0xffff)) }
            for c in absCodes { seen[EventType.abs, default: []].insert(c) }
            return seen
        }

        func saw(abs code: UInt16) -> Bool { absSeen & (1 << UInt64(code)) != 0 }

        var absCodes: [UInt16] { (0..<UInt16(AbsCode.count)).filter { saw(abs: $0) } }
    }

    /// Axes whose range is a convention, not the values seen: pressure and contact size.
    static let conventionalAxes: Set<UInt16> = [
        AbsCode.pressure, AbsCode.mtPressure, AbsCode.mtTouchMajor, AbsCode.mtTouchMinor, 0x32, 0x33,
    ]

    /// Keys only touchpads send: `BTN_LEFT` (a clickpad's button), `BTN_TOOL_FINGER`, `BTN_TOOL_QUINTTAP`,
    /// `BTN_TOOL_DOUBLETAP`, `BTN_TOOL_TRIPLETAP`, `BTN_TOOL_QUADTAP`.
    static let touchpadKeys: [UInt16] = [0x110, KeyCode.btnToolFinger, 0x148, 0x14d, 0x14e, 0x14f]

    /// A whole description from the events alone; `name` and `identity` are what the log says, if anything.
    static func infer(from e: Evidence, name: String, identity: DeviceIdentity) -> (DeviceDescription, [String]) {
        var codes = e.seen
        var axes: [UInt16: AbsInfo] = [:]
        var conventional: [String] = []
        var fromValues: [String] = []
        // Pressure first, as it is what the ranges matter most for; then the multi-touch axes, then the rest.
        func rank(_ c: UInt16) -> Int {
            c == AbsCode.mtPressure ? 0 : c == AbsCode.pressure ? 1 : (c >= AbsCode.mtSlot ? 0x100 : 0x200) + Int(c)
        }
        for code in e.absCodes.sorted(by: { rank($0) < rank($1) }) where code != AbsCode.mtSlot {
            let label = EventNames.code(type: EventType.abs, code)
            let hi = e.maximum[Int(code)]
            if conventionalAxes.contains(code) {
                axes[code] = AbsInfo(minimum: 0, maximum: max(255, hi))
                conventional.append(hi > 255 ? "\(label) 0..\(hi) (values above the usual 255 seen)" : "\(label) 0..255")
            } else if code == AbsCode.mtTrackingID {
                axes[code] = AbsInfo(minimum: 0, maximum: max(65535, hi))
                conventional.append("\(label) 0..\(max(65535, hi))")
            } else {
                let a = AbsInfo(minimum: min(0, e.minimum[Int(code)]), maximum: max(1, hi))
                axes[code] = a
                fromValues.append("\(label) \(a.minimum)..\(a.maximum)")
            }
        }
        var notes: [String] = []
        if e.sawMTReport {
            codes[EventType.abs]?.remove(AbsCode.mtSlot)
            notes.append("SYN_MT_REPORT seen: multi-touch protocol A assumed (no slots)")
        } else if e.saw(abs: AbsCode.mtSlot) {
            let top = max(0, e.maximum[Int(AbsCode.mtSlot)])
            axes[AbsCode.mtSlot] = AbsInfo(minimum: 0, maximum: top)
            fromValues.append("ABS_MT_SLOT 0..\(top)")
        } else if e.saw(abs: AbsCode.mtTrackingID) {
            codes[EventType.abs, default: []].insert(AbsCode.mtSlot)
            axes[AbsCode.mtSlot] = AbsInfo(minimum: 0, maximum: 0)
            notes.append("tracking ids without ABS_MT_SLOT: protocol B with one slot assumed (ABS_MT_SLOT 0..0)")
        }
        var properties: Set<UInt16>
        if let key = touchpadKeys.first(where: { codes[EventType.key]?.contains($0) ?? false }) {
            properties = [InputProperty.pointer]
            notes.append("taken as a touchpad (\(EventNames.code(type: EventType.key, key)) seen): INPUT_PROP_POINTER assumed")
        } else {
            properties = [InputProperty.direct]
            notes.append("taken as a touchscreen: INPUT_PROP_DIRECT assumed")
        }
        var ranges: [String] = []
        if !conventional.isEmpty { ranges.append(conventional.joined(separator: ", ") + " assumed") }
        if !fromValues.isEmpty { ranges.append(fromValues.joined(separator: ", ") + " from the values seen") }
        let head = "no device description in the file (give one with --desc FILE)"
        notes.insert(ranges.isEmpty ? head : head + ": " + ranges.joined(separator: "; "), at: 0)
        let d = DeviceDescription(
            name: name, identity: identity, properties: properties, codes: codes, absInfo: axes)
        return (d, notes)
    }

    /// A description given apart from the log (`--desc`) completed from its events: a name where it has
    /// none, and the codes it leaves out that the events use (an evemu description may hold only `A:`
    /// lines, and a touchpad is told from a touchscreen by its keys). Axes it does not declare are not
    /// made up: their events are ignored, and the note says which.
    static func complete(_ description: DeviceDescription, from e: Evidence, name: String)
        -> (DeviceDescription, [String])
    {
        var d = description
        if d.name.isEmpty { d.name = name }
        var added: [String] = []
        let seen = e.seen
        for type in seen.keys.sorted() where type != EventType.abs {
            for code in (seen[type] ?? []).sorted() where !d.has(type: type, code: code) {
                d.codes[type, default: []].insert(code)
                added.append(EventNames.code(type: type, code))
            }
        }
        var notes: [String] = []
        if !added.isEmpty {
            notes.append("the description declares no \(added.joined(separator: ", ")): taken from the events")
        }
        let undeclared = e.absCodes.filter { d.axis($0) == nil }
        if !undeclared.isEmpty {
            let names = undeclared.map { EventNames.code(type: EventType.abs, $0) }.joined(separator: ", ")
            notes.append("axes in the events that the description does not declare, ignored: \(names)")
        }
        return (d, notes)
    }

    /// `getevent log monkeyhelper-galaxy-paint-new` for `…/monkeyhelper-galaxy-paint-new.getevent.txt`.
    static func name(tool: String, file: String) -> String {
        var stem = Substring(file.split(separator: "/").last ?? Substring(file))
        for suffix in [".txt", ".log", ".getevent", ".evtest"] where stem.hasSuffix(suffix) {
            stem = stem.dropLast(suffix.count)
        }
        return "\(tool) log \(stem)"
    }
}
