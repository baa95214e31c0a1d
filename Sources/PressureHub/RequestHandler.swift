import PressureCore

/// Decides what a client's request asks of the hub before anything changes, as one ``Decision`` the hub
/// then carries out and answers (as ``PeekPopDetector`` returns a transition for its owner to act on).
/// What depends on what the hub holds (a region to remove, a device to reset) the hub checks as it acts.
///
/// | request | decision |
/// |---|---|
/// | any control request (`set`, `reload`, `resetLearning`) from a peer that may not control | ``Decision/refuse(_:)`` |
/// | `subscribe` with an `app` the peer may not be | ``Decision/refuse(_:)`` |
/// | `subscribe` | ``Decision/subscribe(_:)`` |
/// | `setRegion` | ``Decision/setRegion(_:cut:)``: owned by the requester, its menu cut to what an icon shows |
/// | `removeRegion` | ``Decision/removeRegion(_:)`` |
/// | `setQuickActions` after a reload took the subscription's `app` (until it subscribes again) | ``Decision/refuse(_:)`` |
/// | `setQuickActions` before subscribing with an `app` | ``Decision/invalid(_:)`` |
/// | `setQuickActions` for an app the peer may not be | ``Decision/refuse(_:)`` |
/// | `setQuickActions` | ``Decision/setQuickActions(app:kept:shown:cut:)``: the statics first, four in all |
/// | `chooseAction` for an app the peer may not choose for | ``Decision/refuse(_:)`` |
/// | `chooseAction` | ``Decision/chooseAction(app:action:)`` |
/// | `set` | ``Decision/set(_:)``: the settings it makes |
/// | `devices`, `ping`, `status`, `reload`, `resetLearning` | the same, to be answered from the hub's state |
struct RequestHandler {
    /// What a request comes to.
    enum Decision: Equatable {
        /// Not permitted: the client is told why (`not-permitted`) and the refusal is logged.
        case refuse(String)
        /// Not valid in the client's state: `invalid-argument`, saying why.
        case invalid(String)
        case subscribe(Subscription)
        /// The region as the hub keeps it (its owner the requester, its items those kept), and the ids
        /// of the items cut.
        case setRegion(Region, cut: [String])
        case removeRegion(String)
        /// The app's run-time items to keep, and the ids its icon shows and those cut.
        case setQuickActions(app: String, kept: [QuickActionItem], shown: [String], cut: [String])
        case chooseAction(app: String, action: String)
        /// The settings the request makes of those in force.
        case set(GestureSettings)
        case devices, ping, status, reload
        case resetLearning(device: Int?)
    }

    let settings: HubSettings

    /// What `request` from client `client` (`peer`, subscribed as `subscription`) comes to. `revokedApp`:
    /// the app a reload took from that subscription (``ClientTable/Client/revokedApp``).
    func decide(
        _ request: ClientRequest, from client: Int, peer: PeerIdentity, subscription: Subscription?,
        revokedApp: String? = nil
    ) -> Decision {
        let access = settings.access
        if let refusal = access.refusal(of: request, peer) { return .refuse(refusal) }
        switch request {
        case .subscribe(let sub):
            if let app = sub.app, let refusal = access.refusalToAct(as: app, peer) { return .refuse(refusal) }
            return .subscribe(sub)
        case .setRegion(var region):
            region.owner = client
            let (kept, cut) = QuickActionStore.menu(region.items)
            let cutIDs = cut.map { region.items[$0].id }
            region.items = kept
            return .setRegion(region, cut: cutIDs)
        case .removeRegion(let id):
            return .removeRegion(id)
        case .setQuickActions(let items):
            guard let app = subscription?.app else {
                if let lost = revokedApp {
                    // Closed by the reload, or reopened since: either way this connection is not the app.
                    return .refuse(access.refusalToAct(as: lost, peer)
                        ?? "a reload took app \(ClientRequest.quoted(lost)) from this connection: subscribe as it again")
                }
                return .invalid("subscribe with an 'app' before setting its quick actions")
            }
            if let refusal = access.refusalToAct(as: app, peer) { return .refuse(refusal) }
            // The dynamic items kept are those the icon shows after the static ones: each id once, four in all.
            let statics = settings.configuration.staticQuickActions(forApp: app)
            let (shown, cut) = QuickActionStore.menu(statics + items)
            let cutDynamic = Set(cut.filter { $0 >= statics.count }.map { $0 - statics.count })
            return .setQuickActions(
                app: app, kept: items.indices.filter { !cutDynamic.contains($0) }.map { items[$0] },
                shown: shown.map(\.id), cut: cutDynamic.sorted().map { items[$0].id })
        case .chooseAction(let app, let action):
            if let refusal = access.refusalToChoose(for: app, peer) { return .refuse(refusal) }
            return .chooseAction(app: app, action: action)
        case .set(let change):
            return .set(settings.settings(after: change))
        case .devices: return .devices
        case .ping: return .ping
        case .status: return .status
        case .reload: return .reload
        case .resetLearning(let device): return .resetLearning(device: device)
        }
    }
}
