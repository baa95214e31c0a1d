/// Regions, quick actions and chosen actions (`docs/protocol.md`, "Regions and quick actions").
extension Hub {
    /// What an owned touch's quick-action menu shows.
    func quickActionMenu(_ menu: RegionRouter.Menu) -> [QuickActionItem] {
        switch menu {
        case .app(let app): return quickActions.menu(forApp: app, statics: configuration.staticQuickActions(forApp: app))
        case .items(let items): return items
        }
    }

    /// Answers the region and quick-action requests.
    mutating func answerRegionRequest(_ c: Int, _ requestID: JSONValue?, _ request: ClientRequest, now: Timestamp) {
        let reply: ServerMessage.RegionReply
        switch request {
        case .setRegion(var region):
            region.owner = c
            let cut = region.items.dropFirst(QuickActionItem.maximumShown).map(\.id)
            region.items = Array(region.items.prefix(QuickActionItem.maximumShown))
            regions.set(region)
            updateTouchReporting()
            reply = .setRegion(region: region.id, items: region.items.map(\.id), cut: Array(cut))
        case .removeRegion(let id):
            guard regions.remove(owner: c, id: id) else {
                reject(c, ProtocolError(id: requestID, code: .invalidArgument, message: "no region \(ClientRequest.quoted(id)) on this connection"))
                return
            }
            updateTouchReporting()
            reply = .removeRegion(region: id)
        case .setQuickActions(let items):
            guard let app = clients.subscription(of: c)?.app else {
                reject(c, ProtocolError(id: requestID, code: .invalidArgument, message: "subscribe with an 'app' before setting its quick actions"))
                return
            }
            let statics = configuration.staticQuickActions(forApp: app)
            let room = max(0, QuickActionItem.maximumShown - statics.count)
            quickActions.set(Array(items.prefix(room)), forApp: app, &work)
            reply = .setQuickActions(
                app: app, items: (statics + items.prefix(room)).map(\.id), cut: items.dropFirst(room).map(\.id))
        case .chooseAction(let app, let action):
            let delivered = deliverChoice(app: app, action: action)
            if !delivered { quickActions.wait(app: app, action: action, now: now, &work) }
            reply = .chooseAction(app: app, action: action, delivered: delivered)
        case .subscribe, .devices, .ping, .status, .set, .reload, .resetLearning:
            return
        }
        send(.message(.regionReply(id: requestID, reply)), to: .client(c))
    }

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
            if sent { work.notices.append(.info("choice \(choice.action) delivered to \(app)")) }
            delivered.append(sent)
        }
        if !delivered.isEmpty { quickActions.removeChoices(forApp: app, delivered: delivered) }
    }
}
