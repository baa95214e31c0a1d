import PressureCore

/// Devices: appearing, their events, going; and where each pipeline's outputs go: to clients, to the
/// touches filter mode holds (its hold part, below) and to the actions they fire (its actions part).
extension Hub {
    /// A device appears. Not a touch device: nil (and a notice). A calibration the configuration gets
    /// wrong falls back to the defaults with a warning: the device is still served. `learned`: what the
    /// loop read from the device's state file (what this run remembers of it wins, being newer);
    /// `persistsLearning`: whether what it learns is handed back for saving (``Work/learnedSaves``);
    /// `assumed`: what a replayed log's reader assumed of the device, told to apps with it; `clock`: how
    /// its event times stand to the loop's (a replay's are the capture's).
    @discardableResult
    public mutating func addDevice(
        node: String, description: DeviceDescription, udev: UdevDeviceProperties = UdevDeviceProperties(),
        learned: AverageTouchLearner? = nil, persistsLearning: Bool = false, assumed: [String] = [],
        clock: DeviceClock = .hub
    ) -> Int? {
        guard let id = devices.add(
            node: node, description: description, udev: udev, learned: learned, persistsLearning: persistsLearning,
            assumed: assumed, clock: clock, settings: settings, configuration: configuration,
            recordsTransitions: recordsTransitions, &work)
        else { return nil }
        resolveActions(deviceAt: devices.count - 1)
        updateTouchReporting()
        let entry = devices[devices.count - 1]
        let info = entry.info
        let why = entry.pipeline.forceUnavailableReason.map { " (\($0.explanation))" } ?? ""
        work.notices.append(.info("device \(id) added: \(node) \"\(info.name)\" \(info.kind.rawValue), force \(info.forceCapability.rawValue)\(why)"))
        broadcastDevice(.added, info)
        return id
    }

    /// The device's events now stand to the loop's clock this way (a paced replay has started).
    public mutating func setClock(_ clock: DeviceClock, device id: Int) {
        guard let i = devices.index(of: id) else { return }
        devices.entries[i].clock = clock
    }

    /// A device disappears (unplugged, `ENODEV`, a replay that ended): its contacts are cancelled and
    /// open peeks dismissed before clients hear it is gone.
    public mutating func removeDevice(_ id: Int) {
        guard let i = devices.index(of: id) else { return }
        if let t = devices.entries[i].lastTime {
            devices.entries[i].pipeline.cancelAll(at: t)
            route(deviceAt: i)
        }
        let info = devices[i].info
        latencyBook.retire(devices[i])
        devices.remove(at: i)
        regions.forget(device: id)
        taken.forget(device: id)
        actions.forget(device: id)
        held.forget(device: id)
        work.notices.append(.info("device \(id) removed: \(info.node)"))
        broadcastDevice(.removed, info)
    }

    /// Events read from a device, in order. Long-press deadlines due before an event are ticked first.
    /// Each frame's latency is measured from its time on the loop's clock (the kernel's time stamp of its
    /// `SYN_REPORT`; a paced replay's, where its schedule put it) or, for a device whose clock maps onto
    /// none (a replay at full speed), from `handedOverAt`, when the loop handed the events over; the loop
    /// then says when they are queued (``framesQueued(now:)``).
    public mutating func handle(device id: Int, events: ArraySlice<InputEvent>, handedOverAt: Timestamp? = nil) {
        guard let i = devices.index(of: id) else { return }
        var k = events.startIndex
        while k < events.endIndex {
            // Up to the next event with news or the frame's end, in the pipeline's own loop.
            k = devices.entries[i].pipeline.feed(events, from: k, stoppingAfterNewsBeyond: devices.entries[i].savedRevision)
            let e = events[k - 1]
            devices.entries[i].lastTime = e.time
            if devices.entries[i].hasNews, route(deviceAt: i) > 0 { devices.entries[i].latency.noteOutput() }
            if e.type == EventType.syn && e.code == SynCode.report {
                devices.entries[i].latency.frameEnded(at: devices.entries[i].clock.hubTime(of: e.time) ?? handedOverAt)
            }
        }
        if !held.isEmpty, let t = devices.entries[i].lastTime { letGoHeld(deviceAt: i, at: t) }
    }

    /// After `SYN_DROPPED` and a libevdev resync: the device's true slot state.
    public mutating func resync(
        device id: Int, slots: [SlotTruth], at time: Timestamp
    ) {
        guard let i = devices.index(of: id) else { return }
        work.notices.append(.info("device \(id): SYN_DROPPED, resynced"))
        devices.entries[i].pipeline.resync(slots: slots, at: time)
        devices.entries[i].lastTime = time
        route(deviceAt: i)
    }

    /// Sends the outputs of the pipeline at index `i` to the clients that get them: touch events to every
    /// subscriber of the device's touches (a region's owner among them), the gestures of a touch that
    /// began in a region to the region's owner alone (tagged with it), other gestures to every subscriber
    /// of gestures (`docs/protocol.md`, "Regions and quick actions"). Returns how many lines were queued,
    /// counted per client (the frame's latency is measured to their delivery only if some were).
    @discardableResult
    mutating func route(deviceAt i: Int) -> Int {
        let id = devices.entries[i].id
        var sent = 0
        for t in devices.entries[i].pipeline.transitions {
            work.notices.append(.debug("device \(id) contact \(t.contact): \(t.from) → \(t.input) → \(t.to)\(t.impossible ? " (impossible)" : "")"))
        }
        for e in devices.entries[i].pipeline.outputs {
            switch e.kind {
            case .touch(let phase):
                // Ownership is decided where the touch begins, in the frame it begins.
                if phase == .began {
                    regions.touchBegan(e)
                    if !actions.isEmpty { actionTouchBegan(e, deviceAt: i) }
                    if held.holds(device: id) { holdIfTakeable(e, deviceAt: i) }
                }
                var touch = e
                // No rising hint towards a gesture the owner of the touch's region will never get.
                if touch.progress != nil, !regions.showsProgress(e) { touch.progress = nil }
                if phase == .moved {
                    clients.gatherMoved(touch)
                    continue
                }
                sent += sendGathered()
                sent += send(.event(touch), to: .subscribers(device: id, touches: true))
                if phase == .ended || phase == .cancelled {
                    taken.ended(e.contactKey)
                    if !actions.isEmpty, actions.touchEnded(e) { updateTouchReporting() }
                    if !held.isEmpty { held.ended(e.contactKey, cancelled: phase == .cancelled) }
                    if regions.touchEnded(e), regions.isEmpty, !regions.ownsTouches(onDevice: id) {
                        updateTouchReporting()  // the last owned touch of regions that are gone: stop if nobody listens
                    }
                }
            case .gesture(let g):
                sent += sendGathered()
                switch regions.route(g, e) {
                case .unowned:
                    HapticCues.add(g, of: e, settings: settings, haptics: haptics, to: &work.haptics)
                    if !actions.isEmpty { actionGesture(g, e, deviceAt: i) }
                    sent += send(.event(e), to: .subscribers(device: id, touches: false))
                case .withheld:
                    break
                case .owner(let client, let event, let region, let app, let menu):
                    taken.gave(g, of: e.contactKey)
                    if !held.isEmpty { held.gave(g, of: e.contactKey) }
                    if case .gesture(let delivered) = event.kind, regions.playsHaptics(e) {
                        HapticCues.add(delivered, of: e, settings: settings, haptics: haptics, to: &work.haptics)
                    }
                    let items = menu.map { quickActionMenu($0) }
                    sent += send(.routed(event, region: region, app: app, items: items), to: .client(client))
                }
            }
        }
        sent += sendGathered()
        devices.entries[i].pipeline.clearOutputs()
        if devices.entries[i].pipeline.takeDeviceChange() {
            let info = devices[i].info
            let why = devices[i].pipeline.forceUnavailableReason.map { " (\($0.explanation))" } ?? ""
            work.notices.append(.info("device \(id): force \(info.forceCapability.rawValue), maximum \(DecimalText.fixed(info.maximumPossibleForce, 2))\(why)"))
            broadcastDevice(.changed, info)
        }
        devices.offerLearnedSave(i, &work)
        return sent
    }

    // MARK: Filter mode (`docs/filter.md`)

    /// Whether the device is to be filtered (``FilterMode``), under the configuration in force.
    public func filterMode(for description: DeviceDescription) -> FilterMode {
        FilterMode.resolve(for: description, in: configuration)
    }

    /// The slots of `device` its clone marks `MT_TOOL_PALM` now, after the frames handed over: those of
    /// the touches a gesture took for a region's owner (``TakenTouches``), and with `palms`, those the
    /// tracker ignores as palms.
    public func cancelledSlots(device id: Int, palms: Bool) -> [Int] {
        guard let i = devices.index(of: id) else { return [] }
        let pipeline = devices.entries[i].pipeline
        var slots = taken.isEmpty ? [] : taken.contacts(ofDevice: id).compactMap { pipeline.slot(ofContact: $0) }
        if palms { slots += pipeline.palmSlots.filter { !slots.contains($0) } }
        return slots
    }

    /// Whether `device` is held in `slot` now, after the frames handed over (``TouchPipeline/isHeld(slot:)``):
    /// what a single-touch panel's clone shows in its one slot.
    public func isHeld(device id: Int, slot: Int) -> Bool {
        guard let i = devices.index(of: id) else { return false }
        return devices.entries[i].pipeline.isHeld(slot: slot)
    }

    /// `added`/`removed` go to clients subscribed to devices; `changed` to everyone.
    mutating func broadcastDevice(_ change: ServerMessage.DeviceChange, _ info: DeviceInfo) {
        send(.message(.device(change: change, info)), to: change == .changed ? .everyone : .deviceWatchers)
    }

    /// What an owned touch's quick-action menu shows.
    func quickActionMenu(_ menu: RegionRouter.Menu) -> [QuickActionItem] {
        switch menu {
        case .icon(let app, let own):
            return quickActions.menu(forApp: app, statics: configuration.staticQuickActions(forApp: app), own: own)
        case .items(let items): return items
        }
    }
}

// MARK: Filter mode's hold, beside the routing that decides it

/// Filter mode's hold (`FilterMethod = hold`, `docs/filter.md`): which touches a device's clone holds back
/// until pressured knows what they are, decided here (``HeldTouches``), kept from the clone by its
/// ``CloneRewriter``.
extension Hub {
    /// The clone of `device` holds (`on`: it was made in hold mode) or no longer does.
    public mutating func holdTouches(device id: Int, _ on: Bool) {
        held.set(device: id, on)
    }

    /// What the clone of `device` is told after the frames handed over, or the timer's tick
    /// (``CloneHolds``): the slots whose touch is still held, and those whose held touch a gesture took.
    public mutating func heldSlots(device id: Int) -> CloneHolds {
        held.holds(device: id) ? held.verdicts(device: id) : .none
    }

    /// A touch began on a device whose clone holds: held if it began in a region whose owner wants a
    /// gesture that would take it, or where an action is for such a gesture (its begin routed to the
    /// actions already), until the long-press time at the latest.
    mutating func holdIfTakeable(_ e: PressureEvent, deviceAt i: Int) {
        let pipeline = devices.entries[i].pipeline
        guard regions.wouldTake(e) || actionMayTake(e.contactKey), let slot = pipeline.slot(ofContact: e.contact) else { return }
        held.began(e.contactKey, slot: slot, deadline: e.time + pipeline.thresholds.longPressDuration)
    }

    /// Lets go of the held touches of the device at `i` that moved beyond the slop or are due by `time`
    /// (the device's clock). A long press due at the same time came first (the pipeline ticks before), so a
    /// region that wants it takes the touch instead.
    mutating func letGoHeld(deviceAt i: Int, at time: Timestamp) {
        let id = devices.entries[i].id
        guard held.holds(device: id) else { return }
        let pipeline = devices.entries[i].pipeline
        held.letGo(device: id) { key, t in t.deadline <= time || pipeline.hasMoved(contact: key.contact) }
    }

    /// The timer reached `now` (the loop's clock): every holding device's due touches are let go.
    mutating func letGoHeld(now: Timestamp) {
        for i in devices.entries.indices {
            guard let t = devices.entries[i].clock.deviceTime(at: now) else { continue }
            letGoHeld(deviceAt: i, at: t)
        }
    }

    /// The earliest time a held touch is let go, on the loop's clock.
    var heldDeadline: Timestamp? {
        var earliest: Timestamp? = nil
        for d in devices.entries {
            guard let due = held.nextDeadline(device: d.id), let t = d.clock.hubTime(of: due) else { continue }
            earliest = .earliest(earliest, t)
        }
        return earliest
    }
}

// MARK: Actions, fired from the same routing

/// Actions (`docs/actions.md`): the `[action]` sections in force for each touchscreen, and the touches
/// whose gesture fires one: performed by the loop (``HubWork/actions``), taken as a region's gesture takes
/// a touch, so filter mode keeps them from the app.
extension Hub {
    /// The actions in force for a device (none for an unknown one).
    public func actions(ofDevice id: Int) -> DeviceActions { actions.actions(ofDevice: id) }

    /// Whether an action would take a touch of device `id` that begins now at the screen point (`screenX`,
    /// `screenY`): not in an app's region, and where an action is for one of its gestures (a force one only
    /// while force is on and available on the device). What filter mode's hold asks as a touch begins;
    /// after the touch's begin has been routed, ``actionMayTake(_:)`` says the same of it.
    public func actionWouldTake(device id: Int, screenX: Double, screenY: Double) -> Bool {
        guard !actions.isEmpty, let i = devices.index(of: id) else { return false }
        let inRegion = regions.table.hit(x: screenX, y: screenY) != nil
        return actions.wouldTake(device: id, x: screenX, y: screenY, inRegion: inRegion, force: forceActs(deviceAt: i))
    }

    /// Whether a touch that began (and was routed) may still be taken by an action, or was.
    public func actionMayTake(_ key: ContactKey) -> Bool { !actions.isEmpty && actions.wouldTake(key) }

    /// The gestures of a touch that began (and was routed) whose action would take it: what a hold waits
    /// for, as a region's `wants` are (none once an action fired: the touch is taken).
    public func actionGestures(armedFor key: ContactKey) -> [GestureKind] {
        actions.isEmpty ? [] : actions.armedGestures(key).map(\.kind)
    }

    /// The device at index `i` takes the actions the configuration in force gives it.
    mutating func resolveActions(deviceAt i: Int) {
        let entry = devices.entries[i]
        let resolved = DeviceActions.resolve(
            for: entry.pipeline.device.description, kind: entry.pipeline.device.kind, in: configuration)
        actions.set(resolved, device: entry.id)
    }

    /// Whether force gestures may act on the device at index `i` now: force on and available there.
    func forceActs(deviceAt i: Int) -> Bool {
        settings.forceTouchEnabled && devices.entries[i].pipeline.forceUnavailableReason == nil
    }

    /// A touch began on the device at index `i` (its region, if any, decided already).
    mutating func actionTouchBegan(_ e: PressureEvent, deviceAt i: Int) {
        let inRegion = regions.table.hit(x: e.screenX, y: e.screenY) != nil
        if actions.touchBegan(e, inRegion: inRegion, force: forceActs(deviceAt: i)) == .impossible {
            work.notices.append(.debug("device \(e.device) contact \(e.contact): action began twice (impossible)"))
        }
    }

    /// A gesture no region owns fired on the device at index `i`: the action it fires, if any, goes to the
    /// loop with where the finger is, and the touch is taken from that frame.
    mutating func actionGesture(_ g: GestureKind, _ e: PressureEvent, deviceAt i: Int) {
        guard case .fire(let action) = actions.gesture(g, of: e, force: forceActs(deviceAt: i)) else { return }
        let pipeline = devices.entries[i].pipeline
        let at = pipeline.geometry.normalized(
            x: e.x, y: e.y, xAxis: pipeline.device.xAxis, yAxis: pipeline.device.yAxis)
        taken.gave(g, of: e.contactKey)
        if !held.isEmpty { held.gave(g, of: e.contactKey) }
        work.actions.append(
            FiredAction(device: e.device, contact: e.contact, action: action.does, x: at.x, y: at.y, time: e.time))
        work.notices.append(.debug("device \(e.device) contact \(e.contact): \(action) (\(action.source))"))
    }

    /// The actions in force for each device, as `status` reports them.
    var actionStatus: [ActionStatus] {
        guard !actions.isEmpty else { return [] }
        return devices.entries.flatMap { d in
            actions.actions(ofDevice: d.id).actions.map { ActionStatus(device: d.id, $0) }
        }
    }
}
