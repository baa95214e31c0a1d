import PressureCore

/// Settings and configuration changing at run time, and the daemon stopping.
extension Hub {
    /// New settings or configuration (`set`, `SIGHUP`): every pipeline takes them at once; every client
    /// hears of the new settings and of each device whose force capability or range changed.
    mutating func apply(settings new: GestureSettings, configuration newConfiguration: Configuration) {
        let settingsChanged = new != settings
        settings = new
        configuration = newConfiguration
        // An app the configuration now closes to a client that claimed it is no longer its: it gets none of
        // its choices, and may not set its quick actions.
        let policy = access
        for (c, app) in clients.revokeApps(keeping: { policy.refusalToAct(as: $0, $1) == nil }) {
            work.notices.append(.warning("client \(c) is no longer app \(app): the configuration closed it to \(clients.peer(of: c))"))
        }
        for i in devices.entries.indices {
            if devices.reconfigure(i, newConfiguration, settings: new, &work) {
                broadcastDevice(.changed, devices[i].info)
            }
            devices.entries[i].pipeline.markAnnounced()
        }
        if settingsChanged { send(.message(.settings(PublicSettings(settings))), to: .everyone) }
    }

    /// `SIGHUP` or a `reload` request: the configuration files were read again. The requester (if any) is
    /// answered before everyone hears what changed.
    public mutating func reload(_ newConfiguration: Configuration, answering request: ReloadRequest? = nil) {
        work.notices.append(.info("configuration reloaded"))
        if let r = request {
            send(.message(.reply(id: r.id, .reload(PublicSettings(newConfiguration.settings)))), to: .client(r.client))
        }
        apply(settings: newConfiguration.settings, configuration: newConfiguration)
    }

    /// The configuration could not be read again: the old one stays, and the requester is told why.
    public mutating func reloadFailed(_ message: String, answering request: ReloadRequest?) {
        work.notices.append(.warning("reload failed, keeping the old configuration: \(message)"))
        guard let r = request else { return }
        send(.message(.error(ProtocolError(id: r.id, code: .reloadFailed, message: message))), to: .client(r.client))
    }

    /// The daemon stops: every client gets `bye`, after what ends its streams (a `dismiss` for each peek
    /// and a `cancelled` for each contact still open for it), as when a device goes.
    public mutating func shutdown(reason: String) {
        for id in clients.ids where clients.isOpen(id) { endStreams(id, keeping: nil) }
        send(.message(.bye(reason: reason)), to: .everyone)
    }
}
