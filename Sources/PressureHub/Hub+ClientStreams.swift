import PressureCore

/// Each client's stream is whole, whenever it joins or leaves: every `began` it is sent is followed by
/// exactly one `ended` or `cancelled` for that contact, and every `peek` by exactly one `pop` or `dismiss`.
/// A subscription that starts hearing a device's touches while fingers are down starts with a `began` of
/// each (its current state), before any `moved`; a client that joins mid-peek is sent nothing of that peek
/// (``ClientTable``). A stream that stops while they are open (the subscription no longer covers the
/// device, the client's input ended, it is being disconnected, or the daemon stops) ends them: `dismiss` for each peek, then
/// `cancelled` for each contact; a contact so ended stays over for that client, whatever it subscribes to
/// next, until the finger lifts. (``ClientQueue`` keeps all of these under back-pressure.)
extension Hub {
    /// After `subscribe`: a `began` for each contact down on the devices whose touches the client hears
    /// now and did not under `old`.
    mutating func startTouchStreams(_ c: Int, from old: Subscription?) {
        guard let sub = clients.subscription(of: c), sub.touches else { return }
        for i in devices.entries.indices {
            let id = devices.entries[i].id
            guard sub.includes(device: id), !(old.map { $0.touches && $0.includes(device: id) } ?? false),
                  devices.entries[i].pipeline.liveContactCount > 0
            else { continue }
            let time = devices.entries[i].lastTime ?? Timestamp(microseconds: 0)
            for e in devices.entries[i].pipeline.currentTouches(.began, at: time) {
                send(.event(e), to: .client(c))
            }
        }
    }

    /// Ends what is open for the client and `sub` no longer covers: broadcast peeks of devices whose
    /// gestures it does not hear, contacts of devices whose touches it does not hear. With nil (its
    /// stream stops), everything: its regions' peeks too.
    mutating func endStreams(_ c: Int, keeping sub: Subscription?) {
        let lines = endings(c, keeping: sub)
        for line in lines { send(line, to: .client(c)) }
        // A contact cancelled for a client is over for it while it stays down (it may still hear the
        // device, or, at shutdown, its removal).
        let cancelled = lines.compactMap { line -> ClientTable.TouchKey? in
            if case .end(let key) = line.kind { return key }
            return nil
        }
        guard !cancelled.isEmpty else { return }
        let devices = devices
        clients.stopHearing(c, cancelled) { key in
            devices.index(of: key.device).map { devices.entries[$0].pipeline.isDown(contact: key.contact) } ?? false
        }
    }

    /// Queues the last lines of every client being closed: what ends its open peeks and contacts, then
    /// the error that says why.
    mutating func sayFarewells() {
        for id in clients.owedFarewells {
            clients.sayFarewell(id, ending: endings(id, keeping: nil), &work)
        }
    }

    /// The lines that end what is open for the client and `sub` does not cover: `dismiss` first, as a
    /// peek's ends before its contact's (`docs/protocol.md`).
    private func endings(_ c: Int, keeping sub: Subscription?) -> [ClientTable.Line] {
        var lines: [ClientTable.Line] = []
        for peek in clients.openPeeks(of: c) {
            if let sub, peek.region != nil || (sub.gestures && sub.includes(device: peek.key.device)) { continue }
            guard let e = current(peek.key, .gesture(.dismiss)) else { continue }
            lines.append(peek.region.map { .routed(e, region: $0, app: nil, items: nil) } ?? .event(e))
        }
        for key in clients.openTouches(of: c) {
            if let sub, sub.touches, sub.includes(device: key.device) { continue }
            if let e = current(key, .touch(.cancelled)) { lines.append(.event(e)) }
        }
        return lines
    }

    /// The contact's state as a `kind` event: what it is now, or what its last event carries when it
    /// ended in the events being routed.
    private func current(_ key: ClientTable.TouchKey, _ kind: PressureEvent.Kind) -> PressureEvent? {
        guard let i = devices.index(of: key.device) else { return nil }
        let time = devices.entries[i].lastTime ?? Timestamp(microseconds: 0)
        return devices.entries[i].pipeline.currentEvent(contact: key.contact, kind, at: time)
    }
}
