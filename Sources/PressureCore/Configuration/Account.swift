/// Who may do what, as the configuration names it (`docs/configuration.md`, "Who may do what"):
///
/// ```
/// [pressured]
/// ControlGroup = pressured-admin      # may set, reload, reset what was learned (besides root)
/// LauncherUser = kiosk                # may choose quick actions for other apps
/// LauncherGroup = launchers
///
/// [app org.example.mail]
/// User = mail                         # only these may be this app: it is closed
/// Group = mail-apps
/// ```
///
/// Values are user or group names, or numeric ids, separated by spaces. Names are resolved to ids by the
/// loader (``Configuration/resolvingAccounts(_:)``: the core reads no account database); a peer matches
/// by the ids.
public struct Account: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable {
        case user, group
    }

    public var kind: Kind
    /// As written: a name, or a number.
    public var text: String
    /// The id: the number as written, or what the name resolved to (nil until resolved).
    public var id: UInt32?
    public var file: String
    public var line: Int

    public init(kind: Kind, text: String, id: UInt32?, file: String, line: Int) {
        self.kind = kind
        self.text = text
        self.id = id
        self.file = file
        self.line = line
    }

    public var description: String { "\(kind.rawValue) \(text)" }
}

/// The users and groups a rule names: a peer matches when its user is one of `users` or one of its groups
/// (primary or supplementary) is one of `groups`.
public struct AccountRule: Hashable, Sendable {
    public var users: [Account]
    public var groups: [Account]

    public init(users: [Account] = [], groups: [Account] = []) {
        self.users = users
        self.groups = groups
    }

    public var isEmpty: Bool { users.isEmpty && groups.isEmpty }

    /// Whether the peer is one of the users or in one of the groups (names never resolved match nobody).
    public func matches(_ peer: PeerIdentity) -> Bool {
        users.contains { $0.id == peer.uid } || groups.contains { $0.id.map(peer.isMember(of:)) ?? false }
    }

    /// `user mail, group mail-apps`.
    public var names: String { (users + groups).map(\.description).joined(separator: ", ") }
}

/// Where account names become ids: the system's account database on Linux, a table in tests.
public protocol AccountDirectory {
    func userID(named name: String) -> UInt32?
    func groupID(named name: String) -> UInt32?
}

