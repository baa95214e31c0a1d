import PressureCore

/// The kernel's names for event types, codes, properties and tool types (`linux/input-event-codes.h`): for
/// the human-readable comments the capture writers put beside each line, as evemu and libinput do with
/// libevdev's tables, and for the readers of logs that carry names instead of numbers (`getevent -l`).
/// The table is generated from the kernel headers (``kernelTable``); a code without a name is shown as a
/// number.
public enum EventNames {
    /// `EV_ABS`, or `EV_1e` for a type without a name.
    public static func type(_ type: UInt16) -> String {
        kernel.types[type] ?? "EV_" + hex(type)
    }

    /// `ABS_MT_PRESSURE`, or `ABS_0x3e` / `0x1e` for a code without a name.
    public static func code(type: UInt16, _ code: UInt16) -> String {
        if let name = kernel.codes[type]?[code] { return name }
        guard let prefix = kernel.types[type].map({ String($0.dropFirst(3)) }) else { return "0x" + hex(code) }
        return prefix + "_0x" + hex(code)
    }

    /// `INPUT_PROP_DIRECT`, or `INPUT_PROP_0x1e`.
    public static func property(_ p: UInt16) -> String {
        kernel.properties[p] ?? "INPUT_PROP_0x" + hex(p)
    }

    /// What a kernel name stands for (`ABS_MT_PRESSURE` → code 0x3a of `EV_ABS`), aliases included; nil for
    /// a name the kernel does not define.
    public static func lookup(_ name: String) -> KernelNames.Meaning? {
        Array(name.utf8).withUnsafeBufferPointer { kernel.lookup($0, from: 0, to: $0.count) }
    }

    static func hex(_ v: UInt16) -> String { String(v, radix: 16) }

    /// The parsed table, made once on first use.
    static let kernel = KernelNames(parsing: kernelTable)
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
package enum TextColumns {
    /// `%-Ns`
    static func left(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
    }

    /// `%Ns`
    static func right(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : String(repeating: " ", count: width - s.count) + s
    }

    /// `%0Nx` (lower-case hex, zero-padded).
    package static func hex(_ v: some BinaryInteger, _ width: Int) -> String {
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
