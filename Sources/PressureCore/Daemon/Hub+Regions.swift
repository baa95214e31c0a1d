/// Who a touch that began in a region belongs to, decided once in the frame it began.
struct RegionOwner: Sendable {
    var client: Int
    var region: String
    var wants: RegionWants
    var app: String?
    var items: [QuickActionItem]
    /// An icon's quick-action menu was shown in place of the peek: the rest of the press is the menu's.
    var menuShown = false
    /// The region does not want previews, so the force gestures of this touch are not sent at all.
    var previewRefused = false

    init(_ r: Region) {
        client = r.owner
        region = r.id
        wants = r.wants
        app = r.app
        items = r.items
    }
}

/// A quick action chosen for an app that is not connected yet (the launcher is starting it).
struct PendingChoice: Sendable {
    var app: String
    var action: String
    var expires: Timestamp
}

/// Regions, quick actions and chosen actions (`docs/protocol.md`, "Regions and quick actions").
extension Hub {
    /// How long a chosen action waits for its app to connect and subscribe.
    public static let choiceLifetime = Timestamp.Duration(microseconds: 30_000_000)
    /// At most this many choices wait at once; the oldest is dropped (and logged) beyond it.
    public static let maximumPendingChoices = 64
    /// At most this many apps keep quick actions registered at run time; the one that set them longest
    /// ago loses them (logged) beyond it, so connections inventing app ids cannot grow the daemon.
    public static let maximumQuickActionApps = 256

    /// A gesture of a touch that began in a region: only the owner gets it, tagged with the region, and
    /// only what the region wants (an icon's peek becomes its quick-action menu).
    mutating func routeOwned(_ g: GestureKind, _ e: PressureEvent, _ owner: RegionOwner, device i: Int) {
        guard let c = clients.firstIndex(where: { $0.id == owner.client }), !clients[c].closing else { return }
        var o = owner
        var event = e
        var items: [QuickActionItem]? = nil
        let send: Bool
        switch g {
        case .peek:
            if let app = o.app, o.wants.contains(.quickActions) {
                // An icon: pressing it shows the app's quick actions, as on a home screen.
                event.kind = .gesture(.quickActions)
                items = quickActions(forApp: app)
                o.menuShown = true
                send = true
            } else if o.wants.contains(.previews) {
                send = true
            } else {
                o.previewRefused = true  // not a peek there: nor its pop or dismiss
                send = false
            }
        case .pop, .dismiss:
            send = !o.menuShown && !o.previewRefused
        case .quickActions:
            send = !o.menuShown && !o.previewRefused && o.wants.contains(.quickActions)
            if send { items = o.app.map { quickActions(forApp: $0) } ?? o.items }
        case .longPress:
            send = o.wants.contains(.longPress)
        }
        devices[i].owners[e.contact] = o
        guard send else { return }
        scratch.removeAll(keepingCapacity: true)
        ServerMessage.appendRouted(event, region: o.region, app: items != nil ? o.app : nil, items: items, to: &scratch)
        enqueue(c, droppable: false)
    }

    /// What an app's icon shows: its static items first, then its dynamic ones, four at most.
    func quickActions(forApp app: String) -> [QuickActionItem] {
        let all = configuration.staticQuickActions(forApp: app) + (dynamicQuickActions[app] ?? [])
        return Array(all.prefix(QuickActionItem.maximumShown))
    }

    /// Answers the region and quick-action requests.
    mutating func answerRegionRequest(_ c: Int, _ requestID: JSONValue?, _ request: ClientRequest, now: Timestamp) {
        let client = clients[c].id
        let reply: ServerMessage.RegionReply
        switch request {
        case .setRegion(var region):
            region.owner = client
            let cut = region.items.dropFirst(QuickActionItem.maximumShown).map(\.id)
            region.items = Array(region.items.prefix(QuickActionItem.maximumShown))
            regions.set(region)
            updateTouchReporting()
            reply = .setRegion(region: region.id, items: region.items.map(\.id), cut: Array(cut))
        case .removeRegion(let id):
            guard regions.remove(owner: client, id: id) else {
                reject(c, ProtocolError(id: requestID, code: .invalidArgument, message: "no region \(ClientRequest.quoted(id)) on this connection"))
                return
            }
            updateTouchReporting()
            reply = .removeRegion(region: id)
        case .setQuickActions(let items):
            guard let app = clients[c].subscription?.app else {
                reject(c, ProtocolError(id: requestID, code: .invalidArgument, message: "subscribe with an 'app' before setting its quick actions"))
                return
            }
            let statics = configuration.staticQuickActions(forApp: app)
            let room = max(0, QuickActionItem.maximumShown - statics.count)
            storeQuickActions(Array(items.prefix(room)), app: app)
            reply = .setQuickActions(
                app: app, items: (statics + items.prefix(room)).map(\.id), cut: items.dropFirst(room).map(\.id))
        case .chooseAction(let app, let action):
            let delivered = deliverChoice(app: app, action: action)
            if !delivered {
                if pendingChoices.count >= Self.maximumPendingChoices {
                    let old = pendingChoices.removeFirst()
                    notices.append(.warning("dropped the choice \(old.action) for \(old.app): too many waiting"))
                }
                pendingChoices.append(PendingChoice(app: app, action: action, expires: now + Self.choiceLifetime))
                notices.append(.info("choice \(action) waits for \(app) to connect"))
            }
            reply = .chooseAction(app: app, action: action, delivered: delivered)
        case .subscribe, .devices, .ping, .status, .set, .reload, .resetLearning:
            return
        }
        scratch.removeAll(keepingCapacity: true)
        ServerMessage.regionReply(id: requestID, reply).append(to: &scratch)
        enqueue(c, droppable: false)
    }

    /// An app's run-time quick actions (none: forgotten), keeping at most ``maximumQuickActionApps`` apps.
    mutating func storeQuickActions(_ items: [QuickActionItem], app: String) {
        quickActionApps.removeAll { $0 == app }
        guard !items.isEmpty else {
            dynamicQuickActions[app] = nil
            return
        }
        if quickActionApps.count >= Self.maximumQuickActionApps {
            let oldest = quickActionApps.removeFirst()
            dynamicQuickActions[oldest] = nil
            notices.append(.warning("forgot the quick actions of \(oldest): more than \(Self.maximumQuickActionApps) apps set some"))
        }
        quickActionApps.append(app)
        dynamicQuickActions[app] = items
    }

    /// Sends a chosen action to every connection of its app; false when none is connected.
    mutating func deliverChoice(app: String, action: String) -> Bool {
        var delivered = false
        scratch.removeAll(keepingCapacity: true)
        ServerMessage.action(app: app, action: action).append(to: &scratch)
        for c in clients.indices where !clients[c].closing && clients[c].subscription?.app == app {
            enqueue(c, droppable: false)
            delivered = true
        }
        return delivered
    }

    /// A client subscribed as `app`: the choices waiting for it are delivered now.
    mutating func deliverPendingChoices(to app: String, now: Timestamp) {
        expireChoices(now: now)
        var kept: [PendingChoice] = []
        for p in pendingChoices {
            if p.app == app, deliverChoice(app: p.app, action: p.action) {
                notices.append(.info("choice \(p.action) delivered to \(app)"))
            } else {
                kept.append(p)
            }
        }
        pendingChoices = kept
    }

    /// When the next waiting choice expires (the loop arms its timer for it).
    public var earliestChoiceExpiry: Timestamp? { pendingChoices.map(\.expires).min() }

    /// Drops the choices whose app never came, with a log line each.
    public mutating func expireChoices(now: Timestamp) {
        pendingChoices.removeAll { p in
            guard p.expires <= now else { return false }
            notices.append(.warning("dropped the choice \(p.action) for \(p.app): the app did not connect in time"))
            return true
        }
    }

    /// The regions of a connection that closed go with it.
    mutating func removeRegions(of client: Int) {
        regions.removeAll(owner: client)
    }
}
