/// Each client's touch stream is whole: every `began` it is sent is followed by exactly one `ended` or
/// `cancelled` for that contact, whenever it joins or leaves. A subscription that starts hearing a device
/// while fingers are down starts with a `began` of each (its current state), before any `moved`; a stream
/// that stops while they are down (the subscription no longer covers the device, the client's input ended,
/// or it is being disconnected) ends each with `cancelled`. (``ClientQueue`` keeps `began`, `ended` and
/// `cancelled` under back-pressure; ``ClientTable`` knows which contacts are open for each client.)
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

    /// A `cancelled` for each contact open for the client whose device `sub` does not cover (every one
    /// when nil: its stream stops).
    mutating func endTouchStreams(_ c: Int, keeping sub: Subscription?) {
        for key in clients.openTouches(of: c) {
            if let sub, sub.touches, sub.includes(device: key.device) { continue }
            if let e = currentTouch(key, .cancelled) {
                send(.event(e), to: .client(c))
            }
        }
    }

    /// Queues the last lines of every client being closed: a `cancelled` for each contact open for it,
    /// then the error that says why.
    mutating func sayFarewells() {
        for id in clients.owedFarewells {
            let touches = clients.openTouches(of: id).compactMap { currentTouch($0, .cancelled) }
            clients.sayFarewell(id, cancelling: touches, &work)
        }
    }

    /// The contact's state as a `phase` event: what it is now, or what its end carries when it ended in
    /// the events being routed.
    func currentTouch(_ key: ClientTable.TouchKey, _ phase: PressureEvent.TouchPhase) -> PressureEvent? {
        guard let i = devices.index(of: key.device) else { return nil }
        let time = devices.entries[i].lastTime ?? Timestamp(microseconds: 0)
        return devices.entries[i].pipeline.currentTouch(contact: key.contact, phase, at: time)
    }
}
