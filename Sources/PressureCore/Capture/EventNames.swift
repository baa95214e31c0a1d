/// The kernel's names for event types, codes and properties (`linux/input-event-codes.h`), for the
/// human-readable comments the capture writers put beside each line, as evemu and libinput do with
/// libevdev's tables. Only what touch hardware sends is named; anything else is shown as a number, which
/// is fine because the comments are never read back.
public enum EventNames {
    /// `EV_ABS`, or `EV_0x1e` for a type without a name.
    public static func type(_ type: UInt16) -> String {
        types[type] ?? "EV_" + hex(type)
    }

    /// `ABS_MT_PRESSURE`, or `ABS_0x3e` / `0x1e` for a code without a name here.
    public static func code(type: UInt16, _ code: UInt16) -> String {
        let table: [UInt16: String]
        switch type {
        case EventType.syn: table = syn
        case EventType.key: table = key
        case EventType.rel: table = rel
        case EventType.abs: table = abs
        case EventType.msc: table = msc
        default: table = [:]
        }
        if let name = table[code] { return name }
        guard let prefix = types[type].map({ String($0.dropFirst(3)) }) else { return "0x" + hex(code) }
        return prefix + "_0x" + hex(code)
    }

    /// `INPUT_PROP_DIRECT`, or `INPUT_PROP_0x1e`.
    public static func property(_ p: UInt16) -> String {
        properties[p] ?? "INPUT_PROP_0x" + hex(p)
    }

    static func hex(_ v: UInt16) -> String { String(v, radix: 16) }

    static let types: [UInt16: String] = [
        0x00: "EV_SYN", 0x01: "EV_KEY", 0x02: "EV_REL", 0x03: "EV_ABS", 0x04: "EV_MSC", 0x05: "EV_SW",
        0x11: "EV_LED", 0x12: "EV_SND", 0x14: "EV_REP", 0x15: "EV_FF", 0x16: "EV_PWR", 0x17: "EV_FF_STATUS",
    ]

    static let syn: [UInt16: String] = [0: "SYN_REPORT", 1: "SYN_CONFIG", 2: "SYN_MT_REPORT", 3: "SYN_DROPPED"]

    static let key: [UInt16: String] = [
        0x110: "BTN_LEFT", 0x111: "BTN_RIGHT", 0x112: "BTN_MIDDLE",
        0x140: "BTN_TOOL_PEN", 0x141: "BTN_TOOL_RUBBER", 0x142: "BTN_TOOL_BRUSH", 0x143: "BTN_TOOL_PENCIL",
        0x144: "BTN_TOOL_AIRBRUSH", 0x145: "BTN_TOOL_FINGER", 0x146: "BTN_TOOL_MOUSE", 0x147: "BTN_TOOL_LENS",
        0x148: "BTN_TOOL_QUINTTAP", 0x149: "BTN_STYLUS3", 0x14a: "BTN_TOUCH", 0x14b: "BTN_STYLUS",
        0x14c: "BTN_STYLUS2", 0x14d: "BTN_TOOL_DOUBLETAP", 0x14e: "BTN_TOOL_TRIPLETAP",
        0x14f: "BTN_TOOL_QUADTAP",
    ]

    static let rel: [UInt16: String] = [
        0x00: "REL_X", 0x01: "REL_Y", 0x06: "REL_HWHEEL", 0x08: "REL_WHEEL",
    ]

    static let abs: [UInt16: String] = [
        0x00: "ABS_X", 0x01: "ABS_Y", 0x02: "ABS_Z", 0x03: "ABS_RX", 0x04: "ABS_RY", 0x05: "ABS_RZ",
        0x06: "ABS_THROTTLE", 0x07: "ABS_RUDDER", 0x08: "ABS_WHEEL", 0x09: "ABS_GAS", 0x0a: "ABS_BRAKE",
        0x10: "ABS_HAT0X", 0x11: "ABS_HAT0Y", 0x12: "ABS_HAT1X", 0x13: "ABS_HAT1Y", 0x14: "ABS_HAT2X",
        0x15: "ABS_HAT2Y", 0x16: "ABS_HAT3X", 0x17: "ABS_HAT3Y", 0x18: "ABS_PRESSURE", 0x19: "ABS_DISTANCE",
        0x1a: "ABS_TILT_X", 0x1b: "ABS_TILT_Y", 0x1c: "ABS_TOOL_WIDTH", 0x20: "ABS_VOLUME", 0x21: "ABS_PROFILE",
        0x28: "ABS_MISC", 0x2e: "ABS_RESERVED", 0x2f: "ABS_MT_SLOT", 0x30: "ABS_MT_TOUCH_MAJOR",
        0x31: "ABS_MT_TOUCH_MINOR", 0x32: "ABS_MT_WIDTH_MAJOR", 0x33: "ABS_MT_WIDTH_MINOR",
        0x34: "ABS_MT_ORIENTATION", 0x35: "ABS_MT_POSITION_X", 0x36: "ABS_MT_POSITION_Y",
        0x37: "ABS_MT_TOOL_TYPE", 0x38: "ABS_MT_BLOB_ID", 0x39: "ABS_MT_TRACKING_ID", 0x3a: "ABS_MT_PRESSURE",
        0x3b: "ABS_MT_DISTANCE", 0x3c: "ABS_MT_TOOL_X", 0x3d: "ABS_MT_TOOL_Y",
    ]

    static let msc: [UInt16: String] = [
        0: "MSC_SERIAL", 1: "MSC_PULSELED", 2: "MSC_GESTURE", 3: "MSC_RAW", 4: "MSC_SCAN", 5: "MSC_TIMESTAMP",
    ]

    static let properties: [UInt16: String] = [
        0: "INPUT_PROP_POINTER", 1: "INPUT_PROP_DIRECT", 2: "INPUT_PROP_BUTTONPAD", 3: "INPUT_PROP_SEMI_MT",
        4: "INPUT_PROP_TOPBUTTONPAD", 5: "INPUT_PROP_POINTING_STICK", 6: "INPUT_PROP_ACCELEROMETER",
        7: "INPUT_PROP_PRESSUREPAD",
    ]
}

extension EventNames {
    /// The evtest-like list of a device's codes and axes that both evemu and `libinput record` put in
    /// comments at the top of a file, each line starting with `prefix`. The lines are for people only:
    /// neither format reads them back.
    static func supportedEvents(_ d: DeviceDescription, codes: [UInt16: Set<UInt16>], prefix: String) -> String {
        var s = prefix + "Supported events:\n"
        for type in codes.keys.sorted() {
            s += prefix + "  Event type \(type) (\(EventNames.type(type)))\n"
            for code in (codes[type] ?? []).sorted() {
                s += prefix + "    Event code \(code) (\(EventNames.code(type: type, code)))\n"
                guard type == EventType.abs, let a = d.absInfo[code] else { continue }
                for (label, value) in [("Min", a.minimum), ("Max", a.maximum), ("Fuzz", a.fuzz), ("Flat", a.flat),
                                       ("Resolution", a.resolution)] {
                    s += prefix + "      " + TextColumns.left(label, 10) + " " + TextColumns.right("\(value)", 6) + "\n"
                }
            }
        }
        s += prefix + "Properties:\n"
        for p in d.properties.sorted() { s += prefix + "  Property \(p) (\(EventNames.property(p)))\n" }
        return s
    }
}

/// The comment both evemu and `libinput record` put after an event: `EV_ABS / ABS_MT_PRESSURE      19`,
/// or for a frame's end `------------ SYN_REPORT (0) ---------- +10ms` with the time since the previous
/// one, which is what makes a recording skimmable.
struct EventComment {
    private var lastReportMilliseconds: Int64 = 0

    mutating func text(_ e: InputEvent, time: Timestamp) -> String {
        let code = EventNames.code(type: e.type, e.code)
        if e.type == EventType.syn && e.code == SynCode.mtReport {
            return "++++++++++++ \(code) (\(e.value)) ++++++++++"
        }
        if e.type == EventType.syn {
            let ms = time.microseconds / 1000
            let delta = ms - lastReportMilliseconds
            lastReportMilliseconds = ms
            return "------------ \(code) (\(e.value)) ---------- " + (delta >= 0 ? "+" : "") + "\(delta)ms"
        }
        return EventNames.type(e.type) + " / " + TextColumns.left(code, 20) + " " + TextColumns.right("\(e.value)", 6)
    }
}

/// printf-style padding for the writers (`%-20s`, `%6d`, `%04x`, `%04d`): the formats evemu and libinput
/// write are column-aligned and other tools' eyes (and diffs) expect the same columns.
enum TextColumns {
    /// `%-Ns`
    static func left(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
    }

    /// `%Ns`
    static func right(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : String(repeating: " ", count: width - s.count) + s
    }

    /// `%0Nx` (lower-case hex, zero-padded).
    static func hex(_ v: some BinaryInteger, _ width: Int) -> String {
        let s = String(v, radix: 16)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    /// `%0Nd`: zero-padded after the sign, as C does (`-1` in 4 columns is `-001`).
    static func zeroPadded(_ v: Int64, _ width: Int) -> String {
        let digits = String(v.magnitude)
        let sign = v < 0 ? "-" : ""
        let room = width - sign.count
        return sign + (digits.count >= room ? digits : String(repeating: "0", count: room - digits.count) + digits)
    }

    /// `%#04x`: `0x03`, `0x25b5`, and plain `0000` for zero (C's `#` flag adds no prefix to zero).
    static func alternateHex(_ v: UInt16) -> String {
        v == 0 ? "0000" : "0x" + hex(v, 2)
    }
}
