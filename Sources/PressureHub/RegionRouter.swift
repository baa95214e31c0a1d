import PressureCore

/// The regions clients registered, and the touches they own: a touch that begins in a region is its
/// owner's, decided once, in the frame it begins, and stays so until it ends, whatever happens to the
/// regions meanwhile. The router decides what of such a touch's gestures its owner gets
/// (`docs/protocol.md`, "Regions and quick actions"); the hub sends it.
struct RegionRouter: Sendable {
    /// Who a touch that began in a region belongs to.
    struct Owner: Sendable {
        var client: Int
        var region: String
        var wants: RegionWants
        var app: String?
        var items: [QuickActionItem]
        /// Where the touch is in its press (``Stage``: its table says what the owner gets of each gesture).
        var stage = Stage.pressing
        /// The region lets the daemon play haptics for the touch (`haptics` of `setRegion`).
        var haptics: Bool

        init(_ r: Region) {
            haptics = r.haptics
            client = r.owner
            region = r.id
            wants = r.wants
            app = r.app
            items = r.items
        }

        /// The app whose icon the region is: its peek shows the app's quick actions (``Menu/icon(app:own:)``);
        /// nil where the region is not an icon.
        var icon: String? { wants.contains(.quickActions) ? app : nil }
    }

    /// What the quick-action menu of an owned touch shows.
    enum Menu {
        /// An icon's: the app's items (static and run-time, ``QuickActionStore``), then the icon's own.
        case icon(app: String, own: [QuickActionItem])
        /// The region's own items.
        case items([QuickActionItem])
    }

    /// What becomes of a gesture.
    enum Decision {
        /// No region owns the touch: it goes to every subscriber.
        case unowned
        /// The owner does not want it: nobody gets it.
        case withheld
        /// For the owner only, tagged with its region (`event` may be a peek turned into quick actions);
        /// with a menu, the line names the region's app too.
        case owner(client: Int, event: PressureEvent, region: String, app: String?, menu: Menu?)
    }

    private(set) var table = RegionTable()
    private var owners: [ContactKey: Owner] = [:]

    var isEmpty: Bool { table.isEmpty }
    var count: Int { table.count }
    /// Touches down that belong to a region's owner.
    var ownedTouches: Int { owners.count }

    /// Whether any touch of the device belongs to a region (so the device must go on reporting touches).
    func ownsTouches(onDevice id: Int) -> Bool { owners.keys.contains { $0.device == id } }

    mutating func set(_ region: Region) { table.set(region) }
    mutating func remove(owner: Int, id: String) -> Bool { table.remove(owner: owner, id: id) }
    /// The regions of a connection that closed go with it (touches it owns stay its until they end).
    mutating func removeAll(owner: Int) { table.removeAll(owner: owner) }

    /// A touch began: the topmost region under it, if any, owns it.
    mutating func touchBegan(_ e: PressureEvent) {
        guard let r = table.hit(x: e.screenX, y: e.screenY) else { return }
        owners[e.contactKey] = Owner(r)
    }

    /// Whether a gesture of the touch could take it (``GestureKind/takesTouch``): a region owns it whose
    /// owner wants any gesture (previews: the peek; quick actions, an icon's too: its menu; long press).
    /// Filter mode's hold keeps such a touch from the app until it is decided.
    func wouldTake(_ e: PressureEvent) -> Bool {
        guard !owners.isEmpty, let o = owners[e.contactKey] else { return false }
        return !o.wants.isEmpty
    }

    /// Whether a touch's `progress` is for its owner's eyes: a touch no region owns always shows it; an
    /// owned one only while its next threshold can bring the owner something (``Stage/showsProgress(wants:icon:)``).
    func showsProgress(_ e: PressureEvent) -> Bool {
        guard !owners.isEmpty, let o = owners[e.contactKey] else { return true }
        return o.stage.showsProgress(wants: o.wants, icon: o.icon)
    }

    /// Whether the daemon may play haptics for a touch: one no region owns, or whose region allows it.
    func playsHaptics(_ e: PressureEvent) -> Bool {
        guard !owners.isEmpty, let o = owners[e.contactKey] else { return true }
        return o.haptics
    }

    /// A touch ended; returns whether a region owned it.
    mutating func touchEnded(_ e: PressureEvent) -> Bool {
        guard !owners.isEmpty else { return false }
        return owners.removeValue(forKey: e.contactKey) != nil
    }

    /// A device went: whatever of its touches was still owned is forgotten.
    mutating func forget(device id: Int) {
        guard ownsTouches(onDevice: id) else { return }
        owners = owners.filter { $0.key.device != id }
    }

    /// A gesture of a touch: what the owner of its region gets, and only what the region wants (an icon's
    /// peek becomes its quick-action menu, and the rest of that press is the menu's).
    mutating func route(_ g: GestureKind, _ e: PressureEvent) -> Decision {
        guard !owners.isEmpty else { return .unowned }
        let touch = e.contactKey
        guard var o = owners[touch] else { return .unowned }
        let step = o.stage.after(g, wants: o.wants, icon: o.icon)
        o.stage = step.next
        owners[touch] = o
        var event = e
        let menu: Menu?
        switch step.sent {
        case .nothing:
            return .withheld
        case .gesture:
            menu = nil
        case .iconMenu(let app):
            event.kind = .gesture(.quickActions)
            menu = .icon(app: app, own: o.items)
        case .regionItems:
            menu = .items(o.items)
        }
        return .owner(client: o.client, event: event, region: o.region, app: menu != nil ? o.app : nil, menu: menu)
    }
}
