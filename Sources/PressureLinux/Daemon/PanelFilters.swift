import Glibc
import PressureCommandLine
import PressureCore

/// Filter mode's panels (`docs/filter.md`): which are grabbed and served through a clone, which wait for
/// the touch down on them to lift before they are, and the clones systemd kept across a restart.
///
/// Each clone's descriptor goes into the unit's file descriptor store (`FileDescriptorStoreMax=`, set by the
/// drop-in `pressurectl filter enable` writes), so a daemon killed by the watchdog or crashed leaves the
/// compositor its device; the next one takes it back for the same panel and writes to it again as soon as
/// it has grabbed the panel, without the compositor adding a device first. The daemon's loop owns it.
final class PanelFilters {
    /// The clones of the panels grabbed, by device id (``TouchClone``).
    private var clones: [Int: TouchClone] = [:]
    /// Panels served as they are until the touch down on them lifts: their mode and node.
    private var awaiting: [Int: (mode: FilterMode, node: String)] = [:]
    /// The clones the last run left in systemd's store, by their stored name, until a panel takes its own
    /// back.
    private var kept: [String: Int32]
    private let notify: SystemdNotify?

    /// `kept`: the stored descriptors systemd passed (``SocketActivation/Passed/stored``).
    init(kept: [String: Int32], notify: SystemdNotify?) {
        self.kept = kept
        self.notify = notify
    }

    /// The clone of device `id`, when it is grabbed.
    func clone(_ id: Int) -> TouchClone? { clones[id] }

    /// Filter mode, where the configuration asks for it (`mode`): the panel is grabbed and served to the
    /// compositor through its clone. A panel that cannot be (another program grabbed it, no slots, no
    /// uinput) is served as it is, saying so once; one with a touch down is served as it is until the touch
    /// lifts (``retry(_:_:)``).
    func start(_ id: Int, _ device: EvdevDevice, mode: FilterMode) {
        guard mode.on else { return }
        grab(id, device, mode)
    }

    /// A panel waiting for its filter, all its events read: grabbed now unless a touch is down again.
    func retry(_ id: Int, _ device: EvdevDevice) {
        guard clones[id] == nil, let waiting = awaiting[id] else { return }
        grab(id, device, waiting.mode)
    }

    /// Grabs the panel and makes its clone (or takes back the one systemd kept for it), or leaves it waiting
    /// while a touch is down on it (said once).
    private func grab(_ id: Int, _ device: EvdevDevice, _ mode: FilterMode) {
        let name = TouchClone.storeName(panelNode: device.node)
        let keptClone = kept[name]
        do {
            let clone = try device.makeClone(marksPalms: mode.palms, method: mode.method, kept: keptClone)
            clones[id] = clone
            let waited = awaiting.removeValue(forKey: id) != nil
            if clone.adopted {
                kept[name] = nil
            } else {
                if keptClone != nil { discardKept(name, why: "not this panel's clone") }
                notify?.store(clone.descriptor, name: name)
            }
            let served = clone.adopted ? "keeps \(clone.node), the clone systemd kept (touches left down on it cancelled)"
                : "gets it as \(clone.node)"
            let method = "taken touches \(mode.method == .hold ? "held back" : "cancelled") (FilterMethod = \(mode.method.rawValue), \(mode.methodSource))"
            Log.info("\(device.node): filtered (\(mode.source))\(waited ? ", once idle" : ""): grabbed, the compositor \(served), \(method)\(mode.palms ? ", palms marked" : "")")
        } catch {
            guard error.errno == EAGAIN else {
                awaiting[id] = nil
                if keptClone != nil { discardKept(name, why: "the panel is not filtered") }
                Log.warning("\(device.node): not filtered, served as it is: \(error)")
                return
            }
            if awaiting.updateValue((mode, device.node), forKey: id) == nil {
                Log.info("\(device.node): served as it is for now: \(error)")
            }
        }
    }

    /// The panel goes (unplugged, unreadable): its clone is destroyed and systemd's copy let go, or the
    /// clone kept for it, if it was still waiting to be grabbed.
    func end(_ id: Int, panelNode: String) {
        awaiting[id] = nil
        let name = TouchClone.storeName(panelNode: panelNode)
        if let clone = clones.removeValue(forKey: id) {
            clone.close()
            notify?.removeStored(name: name)
        }
        discardKept(name, why: "its panel went")
    }

    /// After the first scan: the clones systemd kept whose panel is not here, or not filtered now
    /// (`pressurectl filter disable`), are destroyed; those of panels waiting for their touch to lift stay.
    func discardUnclaimed() {
        let waiting = Set(awaiting.values.map { TouchClone.storeName(panelNode: $0.node) })
        for name in kept.keys.sorted() where !waiting.contains(name) {
            discardKept(name, why: "its panel is not filtered now")
        }
    }

    /// Stopping: the touches down on the clones are cancelled now, so none stays down for the compositor
    /// while systemd keeps the clone for the next run (or, without its store, until the exit destroys it).
    /// `currentSlot`: each device's.
    func endContacts(currentSlot: (Int) -> Int32) {
        for (id, clone) in clones { clone.endContacts(currentSlot: currentSlot(id)) }
    }

    /// Destroys a kept clone, if there is one by that name, and has systemd close its copy.
    private func discardKept(_ name: String, why: String) {
        guard let fd = kept.removeValue(forKey: name) else { return }
        TouchClone.destroy(descriptor: fd, subject: name)
        notify?.removeStored(name: name)
        Log.info("\(name): the clone systemd kept from the last run removed: \(why)")
    }
}

@available(*, unavailable, message: "PanelFilters belongs to the daemon's loop")
extension PanelFilters: Sendable {}
