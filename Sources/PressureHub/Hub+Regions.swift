import PressureCore

/// Regions, quick actions and chosen actions (`docs/protocol.md`, "Regions and quick actions").
extension Hub {
    /// What an owned touch's quick-action menu shows.
    func quickActionMenu(_ menu: RegionRouter.Menu) -> [QuickActionItem] {
        switch menu {
        case .icon(let app, let own):
            return quickActions.menu(forApp: app, statics: configuration.staticQuickActions(forApp: app), own: own)
        case .items(let items): return items
        }
    }

    /// Answers the region and quick-action requests.
    mutating func answerRegionRequest(_ c: Int, _ requestID: JSONValue?, _ request: ClientRequest, now: Timestamp) {
        let reply: ServerMessage.RegionReply
        switch request {
        case .setRegion(var region):
            region.owner = c
            let (kept, cut) = QuickActionStore.menu(region.items)
            let cutIDs = cut.map { region.items[$0].id }
            region.items = kept
            regions.set(region)
            updateTouchReporting()
            reply = .setRegion(region: region.id, items: kept.map(\.id), cut: cutIDs)
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
            guard permitted(c, requestID, access.refusalToAct(as: app, clients.peer(of: c))) else { return }
            // The dynamic items kept are those the icon shows after the static ones: each id once, four in all.
            let statics = configuration.staticQuickActions(forApp: app)
            let (shown, cut) = QuickActionStore.menu(statics + items)
            let cutDynamic = Set(cut.filter { $0 >= statics.count }.map { $0 - statics.count })
            quickActions.set(items.indices.filter { !cutDynamic.contains($0) }.map { items[$0] }, forApp: app, &work)
            reply = .setQuickActions(
                app: app, items: shown.map(\.id), cut: cutDynamic.sorted().map { items[$0].id })
        case .chooseAction(let app, let action):
            guard permitted(c, requestID, access.refusalToChoose(for: app, clients.peer(of: c))) else { return }
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
            if sent { work.notices.append(.client("choice \(choice.action) delivered to \(app)")) }
            delivered.append(sent)
        }
        if !delivered.isEmpty { quickActions.removeChoices(forApp: app, delivered: delivered) }
    }
}
