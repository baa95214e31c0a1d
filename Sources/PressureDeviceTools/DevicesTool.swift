import Glibc
import PressureCommandLine
import PressureCore
import PressureLinux

/// `pressurectl devices`: the touch devices on this machine, what pressured makes of each, and where
/// each one's calibration comes from.
public enum DevicesTool {
    public static let usage = """
        usage: pressurectl devices [--json] [--config FILE]... [--input-dir DIR] [--state-directory DIR]
          --json                 one JSON object per device and line
          --config FILE          configuration to resolve calibration and settings from (later files
                                 override)
          --input-dir D          scan D for event nodes instead of asking udev
          --state-directory D    where pressured keeps what devices learned (default as pressured's)
        What each device learned is read from the daemon's state files; `pressurectl status` asks the
        running daemon instead.
        """

    /// One device as the table and the JSON lines show it.
    public struct Row: Sendable {
        public var node: String
        public var device: TouchDevice
        public var calibration: ResolvedCalibration?
        public var forceCapability: TouchDevice.ForceCapability
        public var maximumPossibleForce: Double
        /// Where force comes from, what was learned, the thresholds.
        public var force: DeviceForceStatus
        /// Filter mode under the configuration (`docs/filter.md`).
        public var filter: FilterMode = FilterMode()
        /// The actions in force under the configuration (`docs/actions.md`).
        public var actions = DeviceActions()

        /// Whether filter mode can cancel its touches: by slot, so a protocol B panel's, or a single-touch
        /// touchscreen's through its clone's one slot (``TouchDevice/cloneSlots``).
        public var cancellable: Bool { device.cloneSlots != nil }
    }

    /// Runs the command; returns the exit status (0 success, also when there are no touch devices;
    /// 1 when configuration or a device node could not be read; 2 bad usage).
    public static func main(_ arguments: [String]) -> Int32 {
        do {
            var options = OptionReader(arguments)
            if options.flag("-h") || options.flag("--help") {
                print(usage)
                return 0
            }
            let json = options.flag("--json")
            let configPaths = try options.values("--config")
            let inputDirectory = try options.value("--input-dir")
            let store = LearnedStateStore(
                directory: (try options.value("--state-directory") ?? DaemonOptions.defaultStateDirectory()) + "/learned")
            guard try options.finish().isEmpty else { throw OptionReader.UsageError("devices takes no arguments") }
            let configuration: Configuration? =
                configPaths.isEmpty ? nil : try ConfigurationLoader.load(paths: configPaths)
            let settings = configuration?.settings ?? GestureSettings()

            let (nodes, classified) = discover(inputDirectory: inputDirectory)
            var rows: [Row] = []
            var failures = 0
            for node in nodes {
                let description: DeviceDescription
                do {
                    let device = try EvdevDevice(node: node)
                    description = device.description
                    device.close()
                } catch {
                    failures += 1
                    let hint = error.errno == EACCES ? " (run as root or as a member of the device's group)" : ""
                    Log.warning("pressurectl devices: \(error)\(hint)")
                    continue
                }
                guard classified || TouchDeviceFilter.isTouch(description) else { continue }
                do {
                    // The same sources the daemon uses: defaults, then udev's PRESSURED_* properties, then the files.
                    let udev = UdevDeviceProperties(UdevDiscovery.propertiesIfRunning(ofNode: node))
                    if let row = try row(
                        node: node, description: description, udev: udev, configuration: configuration,
                        settings: settings, store: store)
                    {
                        rows.append(row)
                    }
                } catch {
                    failures += 1
                    Log.error("pressurectl devices: \(node): \(error)")
                }
            }
            var out = BufferedOutput(fd: 1)
            if json {
                for r in rows { appendASCII(jsonLine(r) + "\n", to: &out.buffer) }
            } else {
                appendASCII(rows.isEmpty ? "no touch devices found\n" : table(rows), to: &out.buffer)
            }
            try out.flush()
            return failures == 0 ? 0 : 1
        } catch let e as OptionReader.UsageError {
            Log.error("pressurectl devices: \(e)")
            Log.plain(usage)
            return 2
        } catch {
            Log.error("pressurectl devices: \(error)")
            return 1
        }
    }

    /// The nodes to look at, and whether udev already judged them touch devices.
    static func discover(inputDirectory: String?) -> (nodes: [String], classified: Bool) {
        if inputDirectory == nil && UdevDiscovery.isAvailable() {
            do { return (try UdevDiscovery().enumerate(), true) } catch {
                Log.warning("pressurectl devices: \(error); scanning \(DeviceDiscovery.defaultInputDirectory)")
            }
        }
        return (DevInputWatcher.eventNodes(in: inputDirectory ?? DeviceDiscovery.defaultInputDirectory), false)
    }

    /// What pressured makes of a device, whose node has `udev`'s properties; nil if it is not a touch
    /// device after all.
    static func row(
        node: String, description: DeviceDescription, udev: UdevDeviceProperties = UdevDeviceProperties(),
        configuration: Configuration?, settings: GestureSettings, store: LearnedStateStore? = nil
    ) throws(ConfigurationLoadError) -> Row? {
        guard let device = try? TouchDevice(description) else { return nil }
        // The daemon's setup; but a calibration it would fall back from is the error this shows (touch
        // thresholds it does not show).
        let setup = DeviceSetup(
            device: device, configuration: configuration ?? Configuration(), settings: settings, udev: udev)
        for case .calibration(let error) in setup.notices { throw .configuration(error) }
        let persists = DeviceSetup.persistsLearning(description)
        let learned = persists ? LearnedDeviceKey(device).flatMap { store?.load($0, quiet: true) } : nil
        // The pipeline decides force capability and maximum force as the daemon will.
        let pipeline = setup.pipeline(deviceID: 0, learned: learned)
        return Row(
            node: node, device: device, calibration: setup.calibration,
            forceCapability: pipeline.forceCapability, maximumPossibleForce: pipeline.maximumPossibleForce,
            force: DeviceForceStatus(device: 0, pipeline: pipeline),
            filter: configuration.map { FilterMode.resolve(for: description, in: $0) } ?? FilterMode(),
            actions: configuration.map { DeviceActions.resolve(for: description, kind: device.kind, in: $0) }
                ?? DeviceActions())
    }

    // MARK: Text

    static func contacts(_ d: TouchDevice) -> String {
        switch d.contactProtocol {
        case .slotted(let n): return "\(n) slots"
        case .anonymous: return "protocol A"
        case .singleTouch: return "single"
        }
    }

    static func pressure(_ d: TouchDevice) -> String {
        guard d.hasPressure, let p = d.pressureAxis else { return "none" }
        let resolution = p.resolution > 0 ? "\(p.resolution)/g" : "no resolution"
        return "\(p.minimum)..\(p.maximum), \(resolution)"
    }

    static func force(_ r: Row) -> String {
        if r.forceCapability == .available {
            return "available, max " + decimal(r.maximumPossibleForce)
        }
        return "unavailable (\(r.force.reason?.brief ?? "unknown"))"
    }

    static func calibrationLine(_ c: ResolvedCalibration) -> String {
        let k = c.calibration, s = c.sources
        return "calibration: floor \(k.floor) (\(s.floor)), average \(k.average) (\(s.average)), top \(k.top) (\(s.top))"
    }

    /// Filter mode for a device it is on for: whether its touches can be kept from the app, and how
    /// (``FilterMethod``, with where it was set).
    static func filterLine(_ r: Row) -> String {
        let palms = r.filter.palms ? ", palms marked" : ""
        let method = " (FilterMethod = \(r.filter.method.rawValue), \(r.filter.methodSource))"
        let taken = r.filter.method == .hold
            ? "the touches a gesture could take are held back until pressured knows what they are"
            : "the touches a gesture takes are cancelled"
        switch r.device.cloneSlots {
        case nil:
            let why = r.device.whyNotCancellable ?? "no slots"
            return "filter: on (\(r.filter.source)), but its touches cannot be cancelled (\(why)): served as it is"
        case .panels:
            return "filter: on (\(r.filter.source)): grabbed, the compositor gets a clone on which \(taken)\(method)\(palms)"
        case .one:
            let one = r.filter.method == .hold
                ? "the touch a gesture could take is held back until pressured knows what it is"
                : "the touch a gesture takes is cancelled"
            return "filter: on (\(r.filter.source)): grabbed, the compositor gets a clone with one multi-touch slot, on which \(one)\(method)\(palms)"
        }
    }

    /// An action in force: `action: pop → rightClick in 960x1080+0+0 ([action] file:line)`.
    static func actionLine(_ a: DeviceAction) -> String { "action: \(a) (\(a.source))" }

    /// Aligned columns, each device followed by an indented calibration line where it has one, a
    /// filter line where filter mode is on, and a line for each action in force.
    public static func table(_ rows: [Row]) -> String {
        let header = ["NODE", "NAME", "KIND", "CONTACTS", "PRESSURE", "FORCE"]
        let cells = rows.map { r in
            [r.node, r.device.description.name, r.device.kind.rawValue, contacts(r.device), pressure(r.device), force(r)]
        }
        var widths = header.map(\.count)
        for row in cells { for (i, c) in row.enumerated() { widths[i] = max(widths[i], c.count) } }
        func line(_ cells: [String]) -> String {
            var s = ""
            for (i, c) in cells.enumerated() {
                s += i == cells.count - 1 ? c : c + String(repeating: " ", count: widths[i] - c.count + 2)
            }
            return s + "\n"
        }
        var text = line(header)
        for (r, c) in zip(rows, cells) {
            text += line(c)
            if let cal = r.calibration { text += "    " + calibrationLine(cal) + "\n" }
            if r.device.hasPressure { text += "    force: " + r.force.summary + "\n" }
            if r.filter.on { text += "    " + filterLine(r) + "\n" }
            for a in r.actions.actions { text += "    " + actionLine(a) + "\n" }
        }
        return text
    }

    // MARK: JSON

    /// One device as a JSON object (no newline). Keys: node, name, bus, vendor, product, kind,
    /// contacts, slots (slotted only), pressure (null without), forceCapability, maximumPossibleForce,
    /// calibration (null without), filter (`on`, `palms`, `cancellable`: by slot, `source`, `method`:
    /// `hold` or `cancel`, `methodSource`), and where the configuration gives the device any, actions (each
    /// `gesture`, `does`, `areas`, `source`, as `status` has them).
    public static func jsonLine(_ r: Row) -> String {
        let d = r.device
        let id = d.description.identity
        var s = "{\"node\":" + jsonString(r.node) + ",\"name\":" + jsonString(d.description.name)
        s += ",\"bus\":\(id.bus),\"vendor\":\(id.vendor),\"product\":\(id.product)"
        s += ",\"kind\":\"\(d.kind.rawValue)\""
        switch d.contactProtocol {
        case .slotted(let n): s += ",\"contacts\":\"slotted\",\"slots\":\(n)"
        case .anonymous: s += ",\"contacts\":\"anonymous\""
        case .singleTouch: s += ",\"contacts\":\"single\""
        }
        if d.hasPressure, let p = d.pressureAxis {
            s += ",\"pressure\":{\"min\":\(p.minimum),\"max\":\(p.maximum),\"resolution\":\(p.resolution)}"
        } else {
            s += ",\"pressure\":null"
        }
        s += ",\"forceCapability\":\"\(r.forceCapability.rawValue)\""
        if let reason = r.force.reason { s += ",\"forceUnavailable\":" + jsonString(reason.code) }
        s += ",\"maximumPossibleForce\":" + decimal(r.maximumPossibleForce)
        var force: [UInt8] = []
        r.force.append(to: &force)
        s += ",\"force\":" + String(decoding: force, as: UTF8.self)
        if let c = r.calibration {
            let k = c.calibration, src = c.sources
            s += ",\"calibration\":{\"floor\":\(k.floor),\"average\":\(k.average),\"top\":\(k.top)"
            s += ",\"sources\":{\"floor\":" + jsonString(src.floor) + ",\"average\":" + jsonString(src.average)
            s += ",\"top\":" + jsonString(src.top) + "}}"
        } else {
            s += ",\"calibration\":null"
        }
        s += ",\"filter\":{\"on\":\(r.filter.on),\"palms\":\(r.filter.palms),\"cancellable\":\(r.cancellable)"
        s += ",\"source\":" + jsonString(r.filter.source) + ",\"method\":\"\(r.filter.method.rawValue)\""
        s += ",\"methodSource\":" + jsonString(r.filter.methodSource) + "}"
        if !r.actions.isEmpty {
            var out: [UInt8] = []
            JSONWriter.appendList(r.actions.actions, to: &out) { a, out in
                ActionStatus(device: 0, a).append(to: &out, namingDevice: false)
            }
            s += ",\"actions\":" + String(decoding: out, as: UTF8.self)
        }
        return s + "}"
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped (device names are
    /// whatever firmware says).
    static func jsonString(_ text: String) -> String {
        var s = "\""
        for u in text.unicodeScalars {
            switch u {
            case "\"": s += "\\\""
            case "\\": s += "\\\\"
            case "\n": s += "\\n"
            case "\r": s += "\\r"
            case "\t": s += "\\t"
            case _ where u.value < 0x20:
                let hex = String(u.value, radix: 16)
                s += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: s.unicodeScalars.append(u)
            }
        }
        return s + "\""
    }

    /// The wire format's number style (at most four decimals), so forces read the same everywhere.
    static func decimal(_ value: Double) -> String {
        var bytes: [UInt8] = []
        WireFormat.appendDecimal(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func appendASCII(_ text: String, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: text.utf8)
    }
}
