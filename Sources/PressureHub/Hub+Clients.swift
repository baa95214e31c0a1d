import PressureCore

/// Clients: connecting, requests, and control.
extension Hub {
    /// A client connected; it is sent `hello` at once. `peer`: who it is, as the kernel vouches
    /// (`SO_PEERCRED`, `SO_PEERGROUPS`, read by the loop at accept).
    public mutating func connect(peer: PeerIdentity) -> Int {
        let id = clients.connect(peer: peer)
        send(.message(.hello(devices: deviceInfos, settings: PublicSettings(settings))), to: .client(id))
        work.notices.append(.client("client \(id) connected: \(peer)\(access.mayControl(peer) ? " (may control)" : "")"))
        return id
    }

    /// A client of root (`mayControl`) or of an ordinary user (uid and gid 1000, no other group): for tests
    /// and tools that need no other identity.
    public mutating func connect(mayControl: Bool) -> Int {
        connect(peer: mayControl ? .root : PeerIdentity(uid: 1000, gid: 1000))
    }

    /// The loop closed the client's connection (its last lines were written, a write failed, or the
    /// socket broke).
    public mutating func disconnected(_ id: Int) {
        guard let standing = clients.remove(id) else { return }
        regions.removeAll(owner: id)
        if standing == .open { work.notices.append(.client("client \(id) hung up")) }
        updateTouchReporting()
    }

    /// The client's input ended (end of file: it shut down its sending side, as `nc -N` does, or hung
    /// up). The requests it sent before are answered; it is sent nothing else (contacts open for it end
    /// with `cancelled`, peeks with `dismiss`; its regions go), and the loop is asked to close it once the answers are written.
    public mutating func inputEnded(client id: Int) {
        guard clients.isOpen(id) else {
            clients.inputEnded(id, owesAnswer: owesAnswer(id), &work)
            return
        }
        endStreams(id, keeping: nil)
        regions.removeAll(owner: id)
        work.notices.append(.client("client \(id) hung up"))
        clients.inputEnded(id, owesAnswer: owesAnswer(id), &work)
        updateTouchReporting()
    }

    /// Whether a request of the client waits for the loop (a `reload`): its answer is still to come.
    func owesAnswer(_ id: Int) -> Bool { work.reloads.contains { $0.client == id } }

    /// Bytes queued for a client, for the loop to write. Once a slow reader's queue has room again, it is
    /// told which contacts lost events; once a closing client's last lines are written, the loop is asked
    /// to close it (``Work/disconnects``). Returns whether bytes still wait for it: the loop asks for
    /// `EPOLLOUT` while they do.
    @discardableResult
    public mutating func drain(client id: Int, _ write: (UnsafeRawBufferPointer) -> Int) -> Bool {
        if let dropped = clients.drain(id, owesAnswer: owesAnswer(id), write, &work) {
            send(.message(.dropped(dropped)), to: .client(id))
        }
        return clients.hasPendingBytes(id)
    }

    /// Whether bytes wait for the client (the loop asks for `EPOLLOUT` while they do).
    public func hasPendingBytes(client id: Int) -> Bool { clients.hasPendingBytes(id) }

    /// Bytes queued for an open client (0 for one being closed: nobody waits for it). A replay at full
    /// speed waits for readers that keep up.
    public func backlog(client id: Int) -> Int { clients.backlog(id) }

    /// One request line (without its newline), received at `now` on the loop's clock. A blank line (empty,
    /// or JSON whitespace only) is no request: skipped, unanswered, not an error. A request answered
    /// without an error ends a run of errors (``maximumErrorsPerClient`` counts errors in a row).
    public mutating func receive(client id: Int, line: ArraySlice<UInt8>, now: Timestamp) {
        guard clients.isOpen(id), !Self.isBlank(line) else { return }
        let parsed = line.withUnsafeBufferPointer { ClientRequest.parse(line: $0) }
        switch parsed {
        case .failure(let error):
            reject(id, error)
        case .success(let (requestID, request)):
            let errors = clients.errorCount(id)
            answer(id, requestID, request, now: now)
            if clients.errorCount(id) == errors { clients.resetErrors(id) }
        }
    }

    /// Space, tab and carriage return only (what `nc` and hand-typed sessions send between requests).
    static func isBlank(_ line: ArraySlice<UInt8>) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0d }
    }

    /// A line over the limit: the client is told and disconnected.
    public mutating func lineTooLong(client id: Int, limit: Int) {
        close(id, with: ProtocolError(
            id: nil, code: .lineTooLong, message: "request line longer than \(limit) bytes", fatal: true),
            reason: "request line over \(limit) bytes")
    }

    /// A bad request: a fatal one (and the last of too many) closes the connection after the error.
    mutating func reject(_ id: Int, _ error: ProtocolError) {
        if error.fatal {
            close(id, with: error, reason: error.message)
            return
        }
        guard clients.countError(id) < Self.maximumErrorsPerClient else {
            var tooMany = ProtocolError.tooManyErrors(Self.maximumErrorsPerClient)
            tooMany.id = error.id
            close(id, with: tooMany, reason: "too many bad requests in a row")
            return
        }
        send(.message(.error(error)), to: .client(id))
    }

    /// Answers a request: ``RequestHandler`` decides what it comes to, and the hub does it.
    mutating func answer(_ c: Int, _ requestID: JSONValue?, _ request: ClientRequest, now: Timestamp) {
        let decision = RequestHandler(settings: rules).decide(
            request, from: c, peer: clients.peer(of: c), subscription: clients.subscription(of: c),
            revokedApp: clients.revokedApp(of: c))
        switch decision {
        case .refuse(let refusal):
            work.notices.append(.client("client \(c) refused: \(refusal)"))
            reject(c, ProtocolError(id: requestID, code: .notPermitted, message: refusal))
        case .invalid(let message):
            reject(c, ProtocolError(id: requestID, code: .invalidArgument, message: message))
        case .subscribe(let sub):
            let old = clients.subscription(of: c)
            clients.subscribe(c, sub)
            updateTouchReporting()
            send(.message(.reply(id: requestID, .subscribe(sub))), to: .client(c))
            // Streams stay whole: peeks and contacts of devices no longer heard end, contacts of devices
            // now heard begin (current state) before any `moved`.
            endStreams(c, keeping: sub)
            startTouchStreams(c, from: old)
            // An app that was started for a quick action gets the choice that was waiting for it.
            if let app = sub.app { deliverWaitingChoices(to: app, now: now) }
        case .setRegion(let region, let cut):
            regions.set(region)
            updateTouchReporting()
            send(.message(.regionReply(id: requestID, .setRegion(region: region.id, items: region.items.map(\.id), cut: cut))), to: .client(c))
        case .removeRegion(let id):
            guard regions.remove(owner: c, id: id) else {
                reject(c, ProtocolError(id: requestID, code: .invalidArgument, message: "no region \(ClientRequest.quoted(id)) on this connection"))
                return
            }
            updateTouchReporting()
            send(.message(.regionReply(id: requestID, .removeRegion(region: id))), to: .client(c))
        case .setQuickActions(let app, let kept, let shown, let cut):
            quickActions.set(kept, forApp: app, &work)
            send(.message(.regionReply(id: requestID, .setQuickActions(app: app, items: shown, cut: cut))), to: .client(c))
        case .chooseAction(let app, let action):
            let delivered = deliverChoice(app: app, action: action)
            if !delivered { quickActions.wait(app: app, action: action, now: now, &work) }
            send(.message(.regionReply(id: requestID, .chooseAction(app: app, action: action, delivered: delivered))), to: .client(c))
        case .devices:
            send(.message(.reply(id: requestID, .devices(deviceInfos))), to: .client(c))
        case .ping:
            send(.message(.reply(id: requestID, .ping(time: now))), to: .client(c))
        case .status:
            send(.message(.reply(id: requestID, .status(status, force: forceStatus, latency: latency, activity: activity, actions: actionStatus))), to: .client(c))
        case .set(let s):
            work.notices.append(.info("client \(c) set force touch \(s.forceTouchEnabled ? "on" : "off"), sensitivity \(s.sensitivity.rawValue), haptics \(s.hapticsEnabled ? "on" : "off")"))
            // The answer first, then what everyone (this client too) hears about the change.
            send(.message(.reply(id: requestID, .set(PublicSettings(s)))), to: .client(c))
            apply(settings: s, configuration: configuration)
        case .reload:
            work.reloads.append(ReloadRequest(client: c, id: requestID))
        case .resetLearning(let device):
            resetLearning(c, requestID, device: device)
        }
    }

    /// `resetLearning`: the device (or every device) forgets its learned average and learns afresh; its
    /// state file goes too. A device id that is not served is an error; devices whose average is
    /// configured (or the prior, with learning off) have nothing to forget and are not listed.
    mutating func resetLearning(_ c: Int, _ requestID: JSONValue?, device: Int?) {
        if let id = device, devices.index(of: id) == nil {
            reject(c, ProtocolError(id: requestID, code: .invalidArgument, message: "no device \(id)"))
            return
        }
        let reset = devices.resetLearning(device: device, &work)
        work.notices.append(.info("client \(c) reset what device(s) \(reset) learned"))
        send(.message(.reply(id: requestID, .resetLearning(devices: reset))), to: .client(c))
        for i in devices.entries.indices where reset.contains(devices.entries[i].id) {
            devices.entries[i].pipeline.markAnnounced()
            broadcastDevice(.changed, devices[i].info)
        }
    }

    // MARK: Chosen actions

    /// Sends a chosen action to every connection of its app; false when none is connected.
    mutating func deliverChoice(app: String, action: String) -> Bool {
        send(.message(.action(app: app, action: action)), to: .app(app)) > 0
    }

    /// A client subscribed as `app`: the choices waiting for it are delivered now.
    mutating func deliverWaitingChoices(to app: String, now: Timestamp) {
        quickActions.expire(now: now, &work)
        var delivered: [Bool] = []
        for choice in quickActions.choices(forApp: app) {
            let sent = deliverChoice(app: app, action: choice.action)
            if sent { work.notices.append(.client("choice \(choice.action) delivered to \(app)")) }
            delivered.append(sent)
        }
        if !delivered.isEmpty { quickActions.removeChoices(forApp: app, delivered: delivered) }
    }

    // MARK: Admission

    /// The most clients served at once, under the configuration in force (`MaxClients`).
    public var maximumClients: Int { configuration.maximumClients }

    /// Whether a newcomer may connect now (``ClientAdmission``): clients being closed count until the
    /// loop has closed them.
    public var hasRoomForClient: Bool { ClientAdmission(maximumClients: maximumClients).hasRoom(connected: clients.count) }

    /// A newcomer turned away at the cap (`peer`: who it is): the line to send it instead of `hello` (a
    /// fatal `too-many-clients` error), then the loop closes it. Logged as a client line.
    public mutating func refuseNewcomer(peer: PeerIdentity) -> [UInt8] {
        let (why, line) = ClientAdmission(maximumClients: maximumClients).refusal(connected: clients.count)
        work.notices.append(.client("turned a client away (\(peer)): \(why)"))
        return line
    }

    // MARK: Whole streams (``ClientStreams``)

    /// After `subscribe`: a `began` for each contact down on the devices whose touches the client hears
    /// now and did not under `old`.
    mutating func startTouchStreams(_ c: Int, from old: Subscription?) {
        for e in ClientStreams.openings(c, from: old, clients: clients, devices: devices) {
            send(.event(e), to: .client(c))
        }
    }

    /// Ends what is open for the client and `sub` no longer covers: broadcast peeks of devices whose
    /// gestures it does not hear, contacts of devices whose touches it does not hear. With nil (its
    /// stream stops), everything: its regions' peeks too.
    mutating func endStreams(_ c: Int, keeping sub: Subscription?) {
        let lines = ClientStreams.endings(c, keeping: sub, clients: clients, devices: devices)
        for line in lines { send(line, to: .client(c)) }
        // A contact cancelled for a client is over for it while it stays down (it may still hear the
        // device, or, at shutdown, its removal).
        let cancelled = lines.compactMap { line -> ContactKey? in
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
            clients.sayFarewell(id, ending: ClientStreams.endings(id, keeping: nil, clients: clients, devices: devices), &work)
        }
    }
}
