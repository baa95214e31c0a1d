/// Turns the account names a configuration gives into ids, through an ``AccountDirectory``: the core
/// reads no account database, so the loader resolves names once, where it knows the system's.
struct AccountResolver<Directory: AccountDirectory> {
    let directory: Directory

    /// `configuration` with every account name resolved to its id through ``directory``; a name it does
    /// not know is an error naming its file and line (a closed app whose user is missing would otherwise
    /// be closed to everyone without a word).
    func resolve(_ configuration: Configuration) throws(ConfigurationError) -> Configuration {
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
        var result = configuration
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
