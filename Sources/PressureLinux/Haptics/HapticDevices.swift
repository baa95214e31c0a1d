import Glibc
import PressureCommandLine
import PressureCore

/// The haptic devices the daemon plays on, by node. A device that fails (unplugged, `ENODEV`, a write
/// error) is closed with one log line and nothing else changes: gesture delivery never waits on it.
public final class HapticDevices {
    public typealias Opener = (String) throws(SystemError) -> any ForceFeedbackPort
    // `@exclusivity(unchecked)`: read every time the loop performs the hub's work, by the loop's thread
    // alone, never inside another access of them (checked when compiled); see ``Daemon``'s `hub`.
    @exclusivity(unchecked) public private(set) var settings: HapticSettings
    @exclusivity(unchecked) public private(set) var devices: [String: HapticDevice] = [:]
    private let opener: Opener

    public init(settings: HapticSettings, opener: @escaping Opener = { (n: String) throws(SystemError) in try KernelForceFeedback(node: n) }) {
        self.settings = settings
        self.opener = opener
    }

    /// Opens `node` and uploads its effects, where haptics are on and its name matches. Logs what it chose.
    public func open(_ node: String) {
        guard settings.mode != .off, devices[node] == nil else { return }
        let port: any ForceFeedbackPort
        do { port = try opener(node) } catch {
            Log.warning("haptics: \(error)")  // the error names the node
            return
        }
        guard settings.uses(name: port.name) || settings.nodes.contains(node) else {
            Log.debug("haptics: \(node) \"\(port.name)\" does not match MatchName")
            port.close()
            return
        }
        do {
            let device = try HapticDevice(port: port, settings: settings)
            devices[node] = device
            Log.info("haptics: \(node) \"\(port.name)\" (\(device.support)): \(device.choices.joined(separator: "; "))")
        } catch {
            Log.warning("haptics: \(error)")
            port.close()
        }
    }

    /// The node went away (udev `remove`).
    public func close(_ node: String) {
        guard let d = devices.removeValue(forKey: node) else { return }
        d.close()
        Log.info("haptics: \(node) removed")
    }

    /// New settings (a reload): every device is opened afresh with them, if they changed.
    public func reconfigure(_ new: HapticSettings, nodes: [String]) {
        guard new != settings else { return }
        for node in Array(devices.keys) { close(node) }
        settings = new
        for node in nodes { open(node) }
    }

    /// Plays each effect on every device; a device that fails is dropped.
    public func play(_ plays: [HapticPlay]) {
        guard !devices.isEmpty else { return }
        for p in plays {
            for (node, d) in devices {
                do { try d.play(p.gesture) } catch {
                    Log.warning("haptics: \(error); \(node) no longer used")
                    devices[node] = nil
                    d.close()
                }
            }
        }
    }

    public func closeAll() {
        for (_, d) in devices { d.close() }
        devices = [:]
    }

    // MARK: Which nodes, found at start and through udev's hot-plug

    /// The haptic nodes to use under `settings`: those it names, then those udev calls haptic (a replay
    /// plays on configured nodes only: no finger is on this machine's devices).
    static func nodes(for settings: HapticSettings, discovery: (any HotplugSource)?, replaying: Bool) -> [String] {
        guard settings.mode != .off else { return [] }
        var nodes = settings.nodes
        if !replaying {
            if let monitor = discovery as? UdevMonitor {
                nodes += monitor.scanHaptic()
            } else if UdevDiscovery.isAvailable(), let udev = try? UdevDiscovery() {
                nodes += udev.enumerateHaptic()
            }
        }
        var seen: Set<String> = []
        return nodes.filter { seen.insert($0).inserted }
    }

    /// Opens the haptic devices at start, saying in one line when there are none to play on.
    func start(discovery: (any HotplugSource)?, replaying: Bool) {
        for node in Self.nodes(for: settings, discovery: discovery, replaying: replaying) { open(node) }
        if settings.mode == .off {
            Log.info("haptics: off (Haptics = off)")
        } else if devices.isEmpty {
            Log.info("haptics: no haptic device found")
        }
    }

    /// Opens and closes udev's haptic nodes added and removed since it last announced them.
    func followHotplug(_ discovery: (any HotplugSource)?) {
        guard let monitor = discovery as? UdevMonitor else { return }
        for change in monitor.takeHapticChanges() {
            switch change {
            case .added(let node): open(node)
            case .removed(let node): close(node)
            }
        }
    }

    /// After a reload: the devices are opened afresh if the haptic settings changed.
    func reload(_ new: HapticSettings, discovery: (any HotplugSource)?, replaying: Bool) {
        guard new != settings else { return }
        reconfigure(new, nodes: Self.nodes(for: new, discovery: discovery, replaying: replaying))
    }
}
