import PressureCommandLine
import PressureCore

/// Haptic devices: found at start and through udev's hot-plug, reopened on a reload that changes their
/// settings, played before any client line of the frame is written.
extension Daemon {
    /// The haptic nodes to use now: those the configuration names, then those udev calls haptic (a replay
    /// plays on configured nodes only: no finger is on this machine's devices).
    func hapticNodes() -> [String] {
        guard hub.haptics.mode != .off else { return [] }
        var nodes = hub.haptics.nodes
        if options.replay == nil {
            if let monitor = discovery as? UdevMonitor {
                nodes += monitor.scanHaptic()
            } else if UdevDiscovery.isAvailable(), let udev = try? UdevDiscovery() {
                nodes += udev.enumerateHaptic()
            }
        }
        var seen: Set<String> = []
        return nodes.filter { seen.insert($0).inserted }
    }

    func startHaptics() {
        let nodes = hapticNodes()
        for node in nodes { haptics.open(node) }
        if hub.haptics.mode == .off {
            Log.info("haptics: off (Haptics = off)")
        } else if haptics.devices.isEmpty {
            Log.info("haptics: no haptic device found")
        }
    }

    /// udev's haptic nodes added and removed since the last announcement.
    func hapticHotplug() {
        guard let monitor = discovery as? UdevMonitor else { return }
        for change in monitor.takeHapticChanges() {
            switch change {
            case .added(let node): haptics.open(node)
            case .removed(let node): haptics.close(node)
            }
        }
    }

    /// After a reload: the devices are opened afresh if the haptic settings changed.
    func reconfigureHaptics() {
        guard hub.haptics != haptics.settings else { return }
        haptics.reconfigure(hub.haptics, nodes: hapticNodes())
    }
}
