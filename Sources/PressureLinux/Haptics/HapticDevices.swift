import Glibc
import PressureCommandLine
import PressureCore

/// The haptic devices the daemon plays on, by node. A device that fails (unplugged, `ENODEV`, a write
/// error) is closed with one log line and nothing else changes: gesture delivery never waits on it.
public final class HapticDevices {
    public typealias Opener = (String) throws(SystemError) -> any ForceFeedbackPort
    public private(set) var settings: HapticSettings
    public private(set) var devices: [String: HapticDevice] = [:]
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
}
