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

extension Configuration {
    /// Root and the daemon's own user may control; so may the members of these groups (`ControlGroup`, the
    /// last `[pressured]` section that sets it).
    public var controlGroups: [Account] { settingsSections.last { $0.controlGroups != nil }?.controlGroups ?? [] }

    /// Who may choose quick actions for other apps (`LauncherUser`, `LauncherGroup`, each from the last
    /// `[pressured]` section that sets it); empty: no launcher is named.
    public var launchers: AccountRule {
        AccountRule(
            users: settingsSections.last { $0.launcherUsers != nil }?.launcherUsers ?? [],
            groups: settingsSections.last { $0.launcherGroups != nil }?.launcherGroups ?? [])
    }

    /// Who may be `app` (subscribe as it, set its quick actions, receive its choices): the `User` and
    /// `Group` of the last `[app ID]` section for it that gives either, with that section; nil where none
    /// does: the app is open to any client.
    public func access(forApp app: String) -> (rule: AccountRule, section: AppSection)? {
        guard let s = appSections.last(where: { $0.app == app && ($0.users != nil || $0.groups != nil) }) else {
            return nil
        }
        return (AccountRule(users: s.users ?? [], groups: s.groups ?? []), s)
    }

    /// The configuration with every account name resolved to its id through `directory`; a name it does
    /// not know is an error naming its file and line (a closed app whose user is missing would otherwise
    /// be closed to everyone without a word).
    public func resolvingAccounts(_ directory: some AccountDirectory) throws(ConfigurationError) -> Configuration {
        func resolve(_ accounts: [Account]?, key: String) throws(ConfigurationError) -> [Account]? {
            guard var accounts else { return nil }
            for i in accounts.indices where accounts[i].id == nil {
                let a = accounts[i]
                let id = a.kind == .user ? directory.userID(named: a.text) : directory.groupID(named: a.text)
                guard let id, id != UInt32.max else {
                    throw ConfigurationError(file: a.file, line: a.line, reason: .unknownAccount(key: key, account: a))
                }
                accounts[i].id = id
            }
            return accounts
        }
        var result = self
        for i in result.settingsSections.indices {
            let s = result.settingsSections[i]
            result.settingsSections[i].controlGroups = try resolve(s.controlGroups, key: SettingsSection.AccessKey.controlGroup)
            result.settingsSections[i].launcherUsers = try resolve(s.launcherUsers, key: SettingsSection.AccessKey.launcherUser)
            result.settingsSections[i].launcherGroups = try resolve(s.launcherGroups, key: SettingsSection.AccessKey.launcherGroup)
        }
        for i in result.appSections.indices {
            let s = result.appSections[i]
            result.appSections[i].users = try resolve(s.users, key: AppSection.Key.user)
            result.appSections[i].groups = try resolve(s.groups, key: AppSection.Key.group)
        }
        return result
    }
}

extension ConfigurationParser {
    /// `mail 1001 _kiosk`: names or numeric ids (0 to 4294967294), separated by spaces or tabs.
    func accounts(_ key: String, _ value: String, _ kind: Account.Kind) throws(ConfigurationError) -> [Account] {
        let expected = "\(kind.rawValue) names or numeric ids separated by spaces"
        try requireValue(key, value, expected)
        var out: [Account] = []
        for word in value.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            let text = String(word)
            if text.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) {
                guard let n = UInt32(text), n != UInt32.max else {
                    throw fail(.outOfRange(key: key, value: value, expected: "numeric ids from 0 to 4294967294"))
                }
                out.append(Account(kind: kind, text: text, id: n, file: file, line: lineNumber))
            } else {
                guard Self.isAccountName(text) else { throw fail(.invalidNumber(key: key, value: value, expected: expected)) }
                out.append(Account(kind: kind, text: text, id: nil, file: file, line: lineNumber))
            }
        }
        return out
    }

    /// What `useradd` accepts, loosely: a letter or `_`, then letters, digits, `.`, `_`, `-`; a final `$`.
    static func isAccountName(_ s: String) -> Bool {
        var scalars = Array(s.unicodeScalars)
        if scalars.last == "$" { scalars.removeLast() }
        guard let first = scalars.first, first == "_" || ("a"..."z").contains(first) || ("A"..."Z").contains(first),
            scalars.count <= 64
        else { return false }
        return scalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-"
                || $0 == "."
        }
    }
}
