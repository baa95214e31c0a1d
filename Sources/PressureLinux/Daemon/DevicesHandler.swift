import Glibc
import PressureCommandLine
import PressureCore
import PressureHub

/// The daemon's devices handler: discovery (udev, else a watch on the input directory) and hot-plug,
/// opening touch devices and reading them into the hub, unplug; filter mode's panels through
/// ``PanelFilters``; and what devices learned, loaded as one opens and kept by ``LearnedStateStore``.
///
/// The hub is the daemon's, passed in place to each call that feeds it (it is non-copyable: one owner);
/// the loop is the daemon's too, which routes the `device` and `hotplug` tokens here.
final class DevicesHandler {
    private let loop: EventLoop
    /// `--grab`: every device is opened grabbed.
    private let grab: Bool
    // `@exclusivity(unchecked)` on the state read a frame: only the loop's thread touches it, and no
    // access overlaps another (checked when compiled); see ``Daemon``'s `hub`.
    @exclusivity(unchecked) private var devices: [Int: EvdevDevice] = [:]
    private var deviceNodes: [String: Int] = [:]
    /// Filter mode's grabbed panels, their clones, and the clones systemd kept (``PanelFilters``).
    private let filters: PanelFilters
    /// The action devices of panels with actions (``PanelActions``).
    private let actions = PanelActions()
    /// Where devices come and go: nil with pinned devices (`--device`), a replay, or no hot-plug.
    private(set) var discovery: (any HotplugSource)? = nil
    /// One read's events, kept between reads so that reading allocates nothing.
    @exclusivity(unchecked) private var readBuffer: [InputEvent] = []
    /// What devices learned, kept between runs.
    private let learnedStore: LearnedStateStore

    /// `keptClones`: the clones the last run left in systemd's store (``PanelFilters``); `notify`: where
    /// new ones are stored.
    init(loop: EventLoop, grab: Bool, stateDirectory: String, keptClones: [String: Int32], notify: SystemdNotify?) {
        self.loop = loop
        self.grab = grab
        learnedStore = LearnedStateStore(directory: stateDirectory + "/learned")
        filters = PanelFilters(kept: keptClones, notify: notify)
        readBuffer.reserveCapacity(1024)
    }

    /// Pinned devices (`--device`), or discovery (udev, else a watch on the input directory).
    func start(pinned: [String], inputDirectory: String, hub: inout Hub) {
        if !pinned.isEmpty {
            for node in pinned { openDevice(node, classified: false, hub: &hub) }
            return
        }
        do {
            let source = try DeviceDiscovery.makeSource(inputDirectory: inputDirectory)
            try loop.add(source.fd, token: Daemon.Token(.hotplug))
            discovery = source
            Log.info("watching for touch devices through \(source.nodesAreClassified ? "udev" : inputDirectory)")
            for node in source.scan() { openDevice(node, classified: source.nodesAreClassified, hub: &hub) }
        } catch {
            Log.warning("no hot-plug: \(error); serving no devices until restarted with --device")
        }
    }

    func hotplugEvents(hub: inout Hub) {
        guard let source = discovery else { return }
        for change in source.receive() {
            switch change {
            case .added(let node):
                if deviceNodes[node] == nil { openDevice(node, classified: source.nodesAreClassified, hub: &hub) }
            case .removed(let node):
                if let id = deviceNodes[node] { closeDevice(id, why: "removed", hub: &hub) }
            }
        }
    }

    /// Opens a node and serves it if it is a touch device. Permission problems wait for the node's
    /// attributes to change (udev sets them just after the node appears).
    private func openDevice(_ node: String, classified: Bool, hub: inout Hub) {
        let device: EvdevDevice
        do { device = try EvdevDevice(node: node, grab: grab) } catch {
            if error.errno == EACCES || error.errno == EPERM, let source = discovery {
                source.retryWhenAttributesChange(node)
                Log.debug("\(node): \(error); will retry when its permissions change")
            } else {
                Log.warning("\(node): \(error)")
            }
            return
        }
        guard classified || TouchDeviceFilter.isTouch(device.description) else {
            Log.debug("\(node): \"\(device.description.name)\" is not a touch device")
            return
        }
        guard !TouchClone.isClone(named: device.description.name) else {
            Log.debug("\(node): \"\(device.description.name)\" is filter mode's clone of a panel: not served")
            return
        }
        let udev = UdevDeviceProperties(UdevDiscovery.propertiesIfRunning(ofNode: node))
        let persists = DeviceSetup.persistsLearning(device.description)
        let key = (try? TouchDevice(device.description)).flatMap(LearnedDeviceKey.init)
        let learned = persists ? key.flatMap { learnedStore.load($0) } : nil
        guard let id = hub.addDevice(
            node: node, description: device.description, udev: udev, learned: learned, persistsLearning: persists)
        else { return }
        do { try loop.add(device.fd, token: Daemon.Token(.device, id)) } catch {
            Log.error("\(node): \(error)")
            hub.removeDevice(id)
            return
        }
        devices[id] = device
        deviceNodes[node] = id
        filters.start(id, device, mode: hub.filterMode(for: device.description))
        actions.update(id, name: device.description.name, node: node, actions: hub.actions(ofDevice: id))
        hub.holdTouches(device: id, filters.clone(id)?.holds ?? false)
        // Events may already be waiting (a finger was down when we started).
        readDevice(id, hub: &hub)
    }

    func readDevice(_ id: Int, hub: inout Hub) {
        guard let device = devices[id] else { return }
        let clone = filters.clone(id)
        while true {
            readBuffer.removeAllKeepingCapacity()
            let outcome = device.read(into: &readBuffer)
            if let clone {
                passThrough(id, clone, hub: &hub)
            } else if !readBuffer.isEmpty {
                hub.handle(device: id, events: readBuffer[...])
                LatencyClock.framesQueued(&hub)
            }
            switch outcome {
            case .ok:
                // A panel waiting for its filter, all its events read: grabbed unless a touch is down.
                if clone == nil {
                    filters.retry(id, device)
                    if let made = filters.clone(id), made.holds { hub.holdTouches(device: id, true) }
                }
                return
            case .resynced(let slots, let time):
                hub.resync(device: id, slots: slots, at: time)
                if let clone {
                    device.restate(clone, cancelling: hub.cancelledSlots(device: id, palms: clone.marksPalms),
                                   held: clone.makesItsSlot && hub.isHeld(device: id, slot: 0),
                                   holds: hub.heldSlots(device: id))
                }
                continue  // more may be waiting
            case .gone:
                closeDevice(id, why: "unplugged", hub: &hub)
                return
            case .failed(let error):
                Log.warning("\(device.node): \(error)")
                closeDevice(id, why: "read failed", hub: &hub)
                return
            }
        }
    }

    /// Reads every device: a long press is due, and a finger that lifted or moved just before its
    /// deadline must be seen first (epoll may list the timer before a device's fd).
    func readAll(hub: inout Hub) {
        for id in devices.keys { readDevice(id, hub: &hub) }
    }

    /// Filter mode: what was read goes through the hub a frame at a time, and each frame to the clone
    /// after it, so the frame whose gesture took a touch already carries its cancel.
    private func passThrough(_ id: Int, _ clone: TouchClone, hub: inout Hub) {
        var start = readBuffer.startIndex
        for k in readBuffer.indices where readBuffer[k].type == EventType.syn && readBuffer[k].code == SynCode.report {
            hub.handle(device: id, events: readBuffer[start...k])
            clone.write(readBuffer[start...k], cancelling: hub.cancelledSlots(device: id, palms: clone.marksPalms),
                        held: clone.makesItsSlot && hub.isHeld(device: id, slot: 0), holds: hub.heldSlots(device: id))
            start = k + 1
        }
        if start < readBuffer.endIndex {  // a frame whose end is still to come: the clone gets it as it is
            hub.handle(device: id, events: readBuffer[start...])
            clone.write(readBuffer[start...], cancelling: [])
        }
        if !readBuffer.isEmpty { LatencyClock.framesQueued(&hub) }
    }

    /// Hold mode, after the timer's tick: the touches the hub let go by time are written to their clones.
    func settleHeld(hub: inout Hub) {
        for id in devices.keys {
            guard let clone = filters.clone(id), clone.holds else { continue }
            clone.settle(cancelling: hub.cancelledSlots(device: id, palms: clone.marksPalms), holds: hub.heldSlots(device: id))
        }
    }

    /// The device is gone: its contacts are cancelled (open peeks dismissed) and clients told; a filtered
    /// panel's clone goes with it.
    private func closeDevice(_ id: Int, why: String, hub: inout Hub) {
        guard let device = devices.removeValue(forKey: id) else { return }
        filters.end(id, panelNode: device.node)
        actions.end(id)
        Log.info("\(device.node): \(why)")
        loop.remove(device.fd)
        device.close()
        deviceNodes[device.node] = nil
        hub.removeDevice(id)
    }

    /// Writes the actions that fired to their panels' devices (``PanelActions/perform(_:)``).
    func performActions(_ fired: [FiredAction]) { actions.perform(fired, now: monotonicMicroseconds()) }

    /// When a click's button is next due (``PanelActions/nextDue``), for the loop's timer.
    var actionsDue: Int64? { actions.nextDue }

    /// The loop's timer: the clicks' buttons due by `now` are written.
    func writeDueActions(now: Int64) { actions.writeDue(now: now) }

    /// After a reload: each panel's action devices made or destroyed to fit its actions now.
    func refreshActions(hub: borrowing Hub) {
        for (id, device) in devices {
            actions.update(id, name: device.description.name, node: device.node, actions: hub.actions(ofDevice: id))
        }
    }

    /// After the first scan: the clones systemd kept that no panel took back are let go
    /// (``PanelFilters/discardUnclaimed()``).
    func discardUnclaimedClones() { filters.discardUnclaimed() }

    /// Stopping: the touches down on filtered panels' clones are cancelled (``PanelFilters/endContacts(currentSlot:)``).
    func endFilteredContacts() {
        filters.endContacts { self.devices[$0]?.currentSlot ?? 0 }
    }

    // MARK: What devices learned

    /// Stages what the hub says devices learned (or forgets what a reset cleared), to be written when due.
    func keepLearned(_ saves: [Hub.LearnedSave]) {
        let now = monotonicMicroseconds()
        for save in saves {
            if save.reset { learnedStore.forget(save.key) } else { learnedStore.stage(save, now: now) }
        }
    }

    /// Writes what is due by `now`; `force`: everything staged (stopping).
    func flushLearned(now: Int64, force: Bool = false) { learnedStore.flush(now: now, force: force) }

    /// When the next learned file is due (``LearnedStateStore/nextDue``).
    var learnedDue: Int64? { learnedStore.nextDue }
}
