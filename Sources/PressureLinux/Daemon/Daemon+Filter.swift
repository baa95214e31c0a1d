import CLinux
import Glibc
import PressureCommandLine
import PressureCore
import PressureHub

/// Filter mode's grabs and clones (`docs/filter.md`), and the clones systemd keeps across a restart: each
/// clone's descriptor goes into the unit's file descriptor store (`FileDescriptorStoreMax=`, set by the
/// drop-in `pressurectl filter enable` writes), so a daemon killed by the watchdog or crashed leaves the
/// compositor its device; the next one takes it back for the same panel and writes to it again as soon as
/// it has grabbed the panel, without the compositor adding a device first.
extension Daemon {
    /// The name a panel's clone is stored under (``TouchClone/storeName(panelNode:)``).
    static func keptName(_ node: String) -> String { TouchClone.storeName(panelNode: node) }

    /// Filter mode, where the configuration asks for it (``FilterMode``): the panel is grabbed and served
    /// to the compositor through its clone. A panel that cannot be (another program grabbed it, no slots,
    /// no uinput) is served as it is, saying so once; one with a touch down is served as it is until the
    /// touch lifts (``readDevice(_:)`` tries again each time it has read all).
    func startFilter(_ id: Int, _ device: EvdevDevice) {
        let mode = hub.filterMode(for: device.description)
        guard mode.on else { return }
        grab(id, device, mode)
    }

    /// Grabs the panel and makes its clone (or takes back the one systemd kept for it), or leaves it waiting
    /// in ``awaitingGrab`` while a touch is down on it (said once: the grab is tried again each time its
    /// events have all been read).
    func grab(_ id: Int, _ device: EvdevDevice, _ mode: FilterMode) {
        let name = Self.keptName(device.node)
        let kept = keptClones[name]
        do {
            let clone = try device.makeClone(marksPalms: mode.palms, kept: kept)
            clones[id] = clone
            let waited = awaitingGrab.removeValue(forKey: id) != nil
            if clone.adopted {
                keptClones[name] = nil
            } else {
                if kept != nil { discardKeptClone(name, why: "not this panel's clone") }
                notify?.store(clone.descriptor, name: name)
            }
            let served = clone.adopted ? "keeps \(clone.node), the clone systemd kept (touches left down on it cancelled)"
                : "gets it as \(clone.node)"
            Log.info("\(device.node): filtered (\(mode.source))\(waited ? ", once idle" : ""): grabbed, the compositor \(served)\(mode.palms ? ", palms marked" : "")")
        } catch {
            guard error.errno == EAGAIN else {
                awaitingGrab[id] = nil
                if kept != nil { discardKeptClone(name, why: "the panel is not filtered") }
                Log.warning("\(device.node): not filtered, served as it is: \(error)")
                return
            }
            if awaitingGrab.updateValue(mode, forKey: id) == nil {
                Log.info("\(device.node): served as it is for now: \(error)")
            }
        }
    }

    /// The panel goes (unplugged, unreadable): its clone is destroyed and systemd's copy let go, or the
    /// clone kept for it, if it was still waiting to be grabbed.
    func endFilter(_ id: Int, panelNode: String) {
        awaitingGrab[id] = nil
        let name = Self.keptName(panelNode)
        if let clone = clones.removeValue(forKey: id) {
            clone.close()
            notify?.removeStored(name: name)
        }
        if keptClones[name] != nil { discardKeptClone(name, why: "its panel went") }
    }

    /// After the first scan: the clones systemd kept whose panel is not here, or not filtered now
    /// (`pressurectl filter disable`), are destroyed; those of panels waiting for their touch to lift stay.
    func discardUnclaimedKeptClones() {
        let waiting = Set(awaitingGrab.keys.compactMap { devices[$0].map { Self.keptName($0.node) } })
        for name in keptClones.keys.sorted() where !waiting.contains(name) {
            discardKeptClone(name, why: "its panel is not filtered now")
        }
    }

    /// Destroys a kept clone and has systemd close its copy.
    func discardKeptClone(_ name: String, why: String) {
        guard let fd = keptClones.removeValue(forKey: name) else { return }
        _ = pressured_uinput_destroy(fd)
        Glibc.close(fd)
        notify?.removeStored(name: name)
        Log.info("\(name): the clone systemd kept from the last run removed: \(why)")
    }

    /// Stopping: the touches down on the clones are cancelled now, so none stays down for the compositor
    /// while systemd keeps the clone for the next run (or, without its store, until the exit destroys it).
    func endCloneContacts() {
        for (id, clone) in clones { clone.endContacts(currentSlot: devices[id]?.currentSlot ?? 0) }
    }
}
