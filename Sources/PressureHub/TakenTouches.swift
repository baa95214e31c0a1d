import PressureCore

/// The touches a gesture took for a region's owner (`docs/filter.md`): one that began in a region whose
/// owner asked for the gesture that fired (`previews` and a peek, an icon's menu, `quickActions`,
/// `longPress`) is the owner's from that frame until the finger lifts, so filter mode cancels it for the
/// views beneath (`MT_TOOL_PALM` on the clone), as iOS cancels a touch a preview took. A touch outside every
/// region, or whose region did not ask for the gesture, is never taken: a firm press on a plain button
/// still clicks.
struct TakenTouches: Sendable {
    private var keys: Set<ContactKey> = []

    var isEmpty: Bool { keys.isEmpty }

    /// The region's owner got gesture `g` of the touch (``RegionRouter/route(_:_:)`` returned it for the
    /// owner): a gesture that takes a touch (``GestureKind/takesTouch``, the protocol's table of names)
    /// takes it. An owner gets a pop or dismiss only after the peek, which took the touch already.
    mutating func gave(_ g: GestureKind, of key: ContactKey) {
        if g.takesTouch { keys.insert(key) }
    }

    /// The touch ended: nothing of it is taken any longer.
    mutating func ended(_ key: ContactKey) {
        if !keys.isEmpty { keys.remove(key) }
    }

    /// A device went.
    mutating func forget(device id: Int) {
        keys = keys.filter { $0.device != id }
    }

    /// The contacts of `device` taken now.
    func contacts(ofDevice id: Int) -> [UInt64] { keys.filter { $0.device == id }.map(\.contact) }
}
