import PressureClient

/// The readable lines of `pressurectl monitor`, one per event:
///
/// ```
/// 4.591874  device 1  contact 3  peek          at (2102, 2970)  force 1.65 / 6.65
/// ```
///
/// Columns are padded so a stream of events lines up; numbers are rounded for the eye (`--json` has them
/// exactly).
public enum MonitorFormat {
    /// The connection's greeting: daemon, settings, devices.
    public static func hello(_ hello: Hello, path: String) -> [String] {
        var lines = ["pressured \(hello.version) (protocol \(hello.protocolVersion)) at \(path): \(settings(hello.settings))"]
        if hello.devices.isEmpty { lines.append("no devices yet") }
        for d in hello.devices { lines.append(device(d)) }
        return lines
    }

    /// The mark of an end the client made, not the daemon: the connection was lost mid-touch.
    static let ended = "  (not from the daemon: the connection ended)"

    /// One event.
    public static func line(_ event: ClientEvent) -> String {
        switch event {
        case .gesture(let g, let tags, let synthesized):
            var line = contactLine(g, g.typeName)
            if let r = tags?.region { line += "  region " + r }
            if let items = tags?.items { line += "  items: " + items.map(\.title).joined(separator: ", ") }
            return line + (synthesized ? ended : "")
        case .touch(let t, let synthesized):
            var line = contactLine(t, "touch " + (t.phase?.rawValue ?? ""))
            if let p = t.progress { line += "  progress " + fixed(p, 2) }
            return line + (synthesized ? ended : "")
        case .device(let change, let d):
            return device(d, change: change.rawValue)
        case .settings(let s):
            return "settings: " + settings(s)
        case .dropped(let d):
            let n = d.touches
            // An older daemon names no contacts: then the count alone.
            let whose = d.contacts.isEmpty
                ? "" : " of contacts " + d.contacts.map { "\($0.device):\($0.contact)" }.joined(separator: " ")
                    + (d.truncated ? " …" : "")
            return "dropped \(n) touch event\(n == 1 ? "" : "s")\(whose) (this monitor read too slowly)"
        case .bye(let reason):
            return "bye: \(reason.isEmpty ? "no reason given" : reason)"
        case .action(let app, let action):
            return "action \(action) chosen for \(app)"
        case .reconnected(let h):
            return "reconnected: " + hello(h, path: "").joined(separator: "; ")
        case .disconnected(let e):
            return "disconnected: \(e)"
        case .unknown(let type, let value):
            return "\(type.isEmpty ? "untyped" : type): \(value.jsonText)"
        }
    }

    /// `device 1  "name"  touchscreen  force available, max 6.65  69.0 × 95.2 mm  x 0…4095  y 0…4095  replay:…`,
    /// with `change` (`added`, `removed`, `changed`) after the id for `device` events.
    public static func device(_ d: DeviceInfo, change: String? = nil) -> String {
        var s = "device \(d.id)" + (change.map { " " + $0 } ?? "")
        s += "  \"\(d.name)\"  \(d.kind.rawValue)  force \(d.forceCapability.rawValue)"
        if d.forceCapability == .available { s += ", max " + fixed(d.maximumPossibleForce, 2) }
        if let why = d.forceUnavailable { s += " (\(why))" }
        if let w = d.widthMillimetres, let h = d.heightMillimetres { s += "  \(fixed(w, 1)) × \(fixed(h, 1)) mm" }
        s += "  x \(d.xAxis.minimum)…\(d.xAxis.maximum)  y \(d.yAxis.minimum)…\(d.yAxis.maximum)  \(d.node)"
        return s
    }

    public static func settings(_ s: PublicSettings) -> String {
        "force touch \(s.forceTouch ? "on" : "off"), sensitivity \(s.sensitivity.rawValue), haptics \(s.haptics ? "on" : "off")"
    }

    static func contactLine(_ e: PressureEvent, _ what: String) -> String {
        // Wide enough for the longest label, `touch cancelled`.
        let label = what.count < 15 ? what + String(repeating: " ", count: 15 - what.count) : what
        return "\(e.time)  device \(e.device)  contact \(e.contact)  \(label)  at (\(e.x), \(e.y))  force "
            + fixed(e.force, 2) + " / " + fixed(e.maximumPossibleForce, 2)
    }

    /// `value` with exactly `decimals` decimals (``DecimalText/fixed(_:_:)``).
    static func fixed(_ value: Double, _ decimals: Int) -> String { DecimalText.fixed(value, decimals) }
}
