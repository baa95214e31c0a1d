import PressureCore

/// Each client's stream is whole, whenever it joins or leaves: every `began` it is sent is followed by
/// exactly one `ended` or `cancelled` for that contact, and every `peek` by exactly one `pop` or `dismiss`.
/// A subscription that starts hearing a device's touches while fingers are down starts with a `began` of
/// each (its current state), before any `moved`; a client that joins mid-peek is sent nothing of that peek
/// (``ClientTable``). A stream that stops while they are open (the subscription no longer covers the
/// device, the client's input ended, it is being disconnected, or the daemon stops) ends them: `dismiss` for each peek, then
/// `cancelled` for each contact; a contact so ended stays over for that client, whatever it subscribes to
/// next, until the finger lifts. (``ClientQueue`` keeps all of these under back-pressure.)
enum ClientStreams {
    /// The `began` of each contact down on the devices whose touches client `c` hears now (under its
    /// subscription) and did not under `old`: what its stream of each starts with.
    static func openings(
        _ c: Int, from old: Subscription?, clients: ClientTable, devices: DeviceTable
    ) -> [PressureEvent] {
        guard let sub = clients.subscription(of: c), sub.touches else { return [] }
        var events: [PressureEvent] = []
        for d in devices.entries {
            guard sub.includes(device: d.id), !(old.map { $0.touches && $0.includes(device: d.id) } ?? false),
                  d.pipeline.liveContactCount > 0
            else { continue }
            events += d.pipeline.currentTouches(.began, at: d.lastTime ?? Timestamp(microseconds: 0))
        }
        return events
    }

    /// The lines that end what is open for client `c` and `sub` does not cover (with nil: everything,
    /// its regions' peeks too): `dismiss` first, as a peek's ends before its contact's
    /// (`docs/protocol.md`). A peek `sub` still covers is dismissed too when its contact's touch stream
    /// ends (subscribing to gestures only mid-peek): nothing of a contact follows its `cancelled`, and
    /// every peek the client got still ends for it.
    static func endings(
        _ c: Int, keeping sub: Subscription?, clients: ClientTable, devices: DeviceTable
    ) -> [ClientTable.Line] {
        let cancelled = clients.openTouches(of: c).filter { key in
            sub.map { !($0.touches && $0.includes(device: key.device)) } ?? true
        }
        var lines: [ClientTable.Line] = []
        for peek in clients.openPeeks(of: c) {
            if let sub, peek.region != nil || (sub.gestures && sub.includes(device: peek.key.device)),
               !cancelled.contains(peek.key)
            { continue }
            guard let e = current(peek.key, .gesture(.dismiss), devices) else { continue }
            lines.append(peek.region.map { .routed(e, region: $0, app: nil, items: nil) } ?? .event(e))
        }
        for key in cancelled {
            if let e = current(key, .touch(.cancelled), devices) { lines.append(.event(e)) }
        }
        return lines
    }

    /// The contact's state as a `kind` event: what it is now, or what its last event carries when it
    /// ended in the events being routed.
    private static func current(
        _ key: ContactKey, _ kind: PressureEvent.Kind, _ devices: DeviceTable
    ) -> PressureEvent? {
        guard let i = devices.index(of: key.device) else { return nil }
        let time = devices.entries[i].lastTime ?? Timestamp(microseconds: 0)
        return devices.entries[i].pipeline.currentEvent(contact: key.contact, kind, at: time)
    }
}
