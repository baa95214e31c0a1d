/// What a udev monitor has reported, and the rules that turn an announcement into a hot-plug change.
struct UdevHotplugBook {
    /// Touch nodes reported present, so that a lost announcement can be made up for by a rescan.
    var known: Set<String> = []
    /// Nodes the caller could not open: a later `change` for them is reported as an add.
    var awaitingPermission: Set<String> = []

    /// One announcement's effect. `isTouch` is asked only for `add` and `change`.
    mutating func apply(action: String, node: String, isTouch: () -> Bool) -> Hotplug? {
        switch action {
        case "remove":
            known.remove(node)
            awaitingPermission.remove(node)
            return .removed(node: node)
        case "add", "change":
            let touch = isTouch()
            if touch && (!known.contains(node) || awaitingPermission.remove(node) != nil) {
                known.insert(node)
                return .added(node: node)
            }
            if !touch && known.remove(node) != nil {
                awaitingPermission.remove(node)
                return .removed(node: node)
            }
            return nil
        default:
            return nil
        }
    }

    /// The difference between what was reported and what is there now: removals first.
    mutating func rescan(now: Set<String>) -> [Hotplug] {
        let gone = EventNode.sorted(known.subtracting(now)).map { Hotplug.removed(node: $0) }
        let new = EventNode.sorted(now.subtracting(known)).map { Hotplug.added(node: $0) }
        known = now
        awaitingPermission.formIntersection(now)
        return gone + new
    }
}
