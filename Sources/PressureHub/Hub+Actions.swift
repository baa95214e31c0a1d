import PressureCore

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
