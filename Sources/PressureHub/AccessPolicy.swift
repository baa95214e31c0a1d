import PressureCore

/// Who may do what, decided from the peer's identity (``PeerIdentity``, what the kernel vouches for) and
/// the configuration in force (`docs/protocol.md`, "Who may do what"):
///
/// | request | who may |
/// |---|---|
/// | `set`, `reload`, `resetLearning` (control) | root, the daemon's own user, members of `ControlGroup` |
/// | `subscribe` with `app`, `setQuickActions` (be the app, receive its choices) | an open app (no `User`/`Group` for it): anyone; a closed one: its users and groups, root, the daemon's user |
/// | `chooseAction` for an app | root, the daemon's user, a named launcher (`LauncherUser`, `LauncherGroup`); where no launcher is named, anyone for an open app; for a closed app, also whoever may be it |
/// | everything else | anyone who can connect (the socket's mode and group decide that) |
///
/// A value built when needed from the configuration in force, so a reload applies to clients already
/// connected at once.
struct AccessPolicy {
    var configuration: Configuration
    /// The daemon's own user (`getuid()`), as privileged as root: it is the daemon.
    var daemonUser: UInt32

    /// Root or the daemon's own user.
    func isPrivileged(_ peer: PeerIdentity) -> Bool { peer.uid == 0 || peer.uid == daemonUser }

    /// Whether the peer may send control requests.
    func mayControl(_ peer: PeerIdentity) -> Bool {
        isPrivileged(peer) || configuration.controlGroups.contains { $0.id.map(peer.isMember(of:)) ?? false }
    }

    /// Whether the peer may send `request`; nil if so, else why not.
    func refusal(of request: ClientRequest, _ peer: PeerIdentity) -> String? {
        guard request.isControl, !mayControl(peer) else { return nil }
        return ProtocolError.notPermitted(id: nil, request: request.name).message + "; this connection is \(peer)"
    }

    /// Whether the peer may be `app`; nil if so, else why not.
    func refusalToAct(as app: String, _ peer: PeerIdentity) -> String? {
        guard let (rule, section) = configuration.access(forApp: app), !isPrivileged(peer), !rule.matches(peer) else {
            return nil
        }
        return "app \(ClientRequest.quoted(app)) is closed: only \(rule.names) may be it ([app \(section.app)] "
            + "\(section.file):\(section.line)); this connection is \(peer)"
    }

    /// Whether the peer may choose a quick action for `app`; nil if so, else why not.
    func refusalToChoose(for app: String, _ peer: PeerIdentity) -> String? {
        if isPrivileged(peer) { return nil }
        let launchers = configuration.launchers
        if launchers.matches(peer) { return nil }
        let closed = configuration.access(forApp: app)
        if let (rule, _) = closed, rule.matches(peer) { return nil }
        if closed == nil, launchers.isEmpty { return nil }
        let others = launchers.isEmpty ? "" : " and the launchers (\(launchers.names))"
        if let (rule, _) = closed {
            return "app \(ClientRequest.quoted(app)) is closed: only root, \(rule.names)\(others) may choose for it; "
                + "this connection is \(peer)"
        }
        return "only root\(others) may choose for other apps; this connection is \(peer)"
    }
}
