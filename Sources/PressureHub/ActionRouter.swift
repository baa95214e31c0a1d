import PressureCore

/// The actions in force for each device (``DeviceActions``) and what each touch is to them
/// (``ActionTouch``): a touch's actions are decided where it begins, in the frame it begins (after the
/// regions, whose touches are the apps'), and one of its gestures fires at most one action, which takes
/// the touch (``TakenTouches``) as a region's gesture does. Empty unless the configuration has `[action]`
/// sections that match a touchscreen.
struct ActionRouter: Sendable {
    private var byDevice: [Int: DeviceActions] = [:]
    /// Touches that began where actions are, until they end (idle ones are not kept).
    private var touches: [ContactKey: ActionTouch] = [:]

    /// No device has actions, and no touch is armed or taken by one (a reload that took a device's
    /// actions away leaves its touches down until they end).
    var isEmpty: Bool { byDevice.isEmpty && touches.isEmpty }

    /// The actions in force for a device (none where it has none).
    func actions(ofDevice id: Int) -> DeviceActions { byDevice[id] ?? DeviceActions() }

    /// Whether the device has actions, or touches an action may take or took: its pipeline must report
    /// touches, to see where each begins and that each ends.
    func needsTouches(onDevice id: Int) -> Bool {
        byDevice[id] != nil || touches.keys.contains { $0.device == id }
    }

    /// The device's actions, as the configuration in force resolves them; touches already down keep what
    /// they armed.
    mutating func set(_ actions: DeviceActions, device id: Int) {
        byDevice[id] = actions.isEmpty ? nil : actions
    }

    /// A device went.
    mutating func forget(device id: Int) {
        byDevice[id] = nil
        if !touches.isEmpty { touches = touches.filter { $0.key.device != id } }
    }

    /// Whether an action would take a touch that begins now at the screen point of device `id`
    /// (``DeviceActions/wouldTake(x:y:inRegion:force:)``).
    func wouldTake(device id: Int, x: Double, y: Double, inRegion: Bool, force: Bool) -> Bool {
        guard let a = byDevice[id] else { return false }
        return a.wouldTake(x: x, y: y, inRegion: inRegion, force: force)
    }

    /// Whether the touch, once begun, is one an action may still take or took.
    func wouldTake(_ key: ContactKey) -> Bool { touches[key] != nil }

    /// The gestures of a touch, once begun, whose action would take it (none once one fired: it is taken).
    func armedGestures(_ key: ContactKey) -> [ActionGesture] {
        guard case .armed(let armed)? = touches[key] else { return [] }
        return armed.gestures
    }

    /// A touch began at its event's screen point; `inRegion`: a region's owner has it; `force`: force
    /// gestures may act on its device now.
    mutating func touchBegan(_ e: PressureEvent, inRegion: Bool, force: Bool) -> ActionTouch.Effect {
        guard let a = byDevice[e.device] else { return .nothing }
        var state = touches[e.contactKey] ?? .idle
        let effect = state.handle(.began(a.armed(x: e.screenX, y: e.screenY, inRegion: inRegion, force: force)))
        store(state, e.contactKey)
        return effect
    }

    /// A gesture of a touch fired: the action it fires, if any.
    mutating func gesture(_ g: GestureKind, of e: PressureEvent, force: Bool) -> ActionTouch.Effect {
        guard !touches.isEmpty, var state = touches[e.contactKey] else { return .nothing }
        let effect = state.handle(.gesture(g, force: force))
        store(state, e.contactKey)
        return effect
    }

    /// A touch ended or was cancelled; returns whether it was the last the actions kept of a device that
    /// has none now (its pipeline may stop reporting touches).
    mutating func touchEnded(_ e: PressureEvent) -> Bool {
        guard !touches.isEmpty, var state = touches[e.contactKey] else { return false }
        _ = state.handle(.ended)
        store(state, e.contactKey)
        return !needsTouches(onDevice: e.device)
    }

    private mutating func store(_ state: ActionTouch, _ key: ContactKey) {
        if state == .idle { touches[key] = nil } else { touches[key] = state }
    }
}
