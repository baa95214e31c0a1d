import PressureCore

/// Filter mode's held touches (`FilterMethod = hold`, `docs/filter.md`), on the devices whose clone holds
/// (``Hub/holdTouches(device:_:)``): a touch that begins in a region whose owner wants a gesture that would
/// take it is held from the clone until pressured knows what it is. The hub decides, the clone's
/// ``CloneRewriter`` keeps the events (``HeldTouch``):
///
/// | what happens to a held touch | here | the clone |
/// |---|---|---|
/// | the owner gets a gesture that takes it (``GestureKind/takesTouch``) | taken | never sees it |
/// | it moves beyond the long-press slop (``TouchPipeline/hasMoved(contact:)``) | let go | its down, its moves so far, then live |
/// | it stays down past the long-press time, not taken | let go | the same, so the app's own long press works |
/// | it lifts first | let go | the whole touch: a tap clicks once |
/// | the tracker cancels it (a palm, `SYN_DROPPED`, the device going) | taken | never sees it |
///
/// A touch taken after it was let go is cancelled on the clone as in cancel mode (``TakenTouches``).
struct HeldTouches: Sendable {
    /// A held touch: its slot on the panel, when it is let go unless decided before, and whether a gesture
    /// took it (kept until the clone is told, even when it lifted in the same frames).
    struct Touch: Sendable {
        var slot: Int
        var deadline: Timestamp
        var taken = false
        var ended = false
    }

    /// The devices whose clone holds.
    private(set) var devices: Set<Int> = []
    private var touches: [ContactKey: Touch] = [:]

    var isEmpty: Bool { devices.isEmpty }

    func holds(device id: Int) -> Bool { !devices.isEmpty && devices.contains(id) }

    /// The device's clone holds (`on`), or no longer does: what was held on it is forgotten.
    mutating func set(device id: Int, _ on: Bool) {
        if on { devices.insert(id) } else { forget(device: id) }
    }

    /// A touch that began in `slot` at a place that holds it; let go at `deadline` unless decided before.
    mutating func began(_ key: ContactKey, slot: Int, deadline: Timestamp) {
        touches[key] = Touch(slot: slot, deadline: deadline)
    }

    /// The region's owner got gesture `g` of the touch: one that takes a touch takes it.
    mutating func gave(_ g: GestureKind, of key: ContactKey) {
        guard g.takesTouch, touches[key] != nil else { return }
        touches[key]?.taken = true
    }

    /// The touch lifted (`cancelled`: the tracker ended it otherwise): one still held is let go, so the
    /// clone gets it whole, unless cancelled, which the app never sees either.
    mutating func ended(_ key: ContactKey, cancelled: Bool) {
        guard !touches.isEmpty, let t = touches[key] else { return }
        if t.taken || cancelled {
            touches[key]?.taken = true
            touches[key]?.ended = true
        } else {
            touches[key] = nil
        }
    }

    /// Lets go of the touches of `device` still held that `letGo` says are decided (moved, or due).
    mutating func letGo(device id: Int, where letGo: (ContactKey, Touch) -> Bool) {
        for (key, t) in touches where key.device == id && !t.taken && letGo(key, t) { touches[key] = nil }
    }

    /// The earliest deadline of the touches of `device` still held.
    func nextDeadline(device id: Int) -> Timestamp? {
        var earliest: Timestamp? = nil
        for (key, t) in touches where key.device == id && !t.taken { earliest = .earliest(earliest, t.deadline) }
        return earliest
    }

    /// What the clone of `device` is told now (``CloneHolds``); the taken touches that lifted are forgotten
    /// once told.
    mutating func verdicts(device id: Int) -> CloneHolds {
        var holds = CloneHolds()
        guard !touches.isEmpty else { return holds }
        for (key, t) in touches where key.device == id {
            if t.taken { holds.taken.append(t.slot) } else { holds.holding.append(t.slot) }
            if t.ended { touches[key] = nil }
        }
        holds.holding.sort()
        holds.taken.sort()
        return holds
    }

    /// A device went, or its clone no longer holds.
    mutating func forget(device id: Int) {
        devices.remove(id)
        touches = touches.filter { $0.key.device != id }
    }
}
