import PressureCore

/// Reads configuration files and merges them in order (later files override earlier ones).
public enum ConfigurationLoader {
    /// `resolvingAccounts`: user and group names (who may be an app, launchers, the control group) become
    /// ids through the system's account database, and a name it does not know is an error naming its file
    /// and line. The daemon asks for that; tools that only replay or describe devices need not.
    public static func load(paths: [String], resolvingAccounts: Bool = false) throws(ConfigurationLoadError) -> Configuration {
        var files: [Configuration] = []
        for path in paths {
            let bytes: [UInt8]
            do { bytes = try FileBytes.read(path) } catch { throw .system(error) }
            do {
                files.append(try Configuration.parse(String(decoding: bytes, as: UTF8.self), file: path))
            } catch { throw .configuration(error) }
        }
        let merged = Configuration.merged(files)
        guard resolvingAccounts else { return merged }
        do { return try merged.resolvingAccounts(SystemAccounts()) } catch { throw .configuration(error) }
    }
}
