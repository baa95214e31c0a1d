import PressureCore

/// Reads configuration files and merges them in order (later files override earlier ones).
public enum ConfigurationLoader {
    public static func load(paths: [String]) throws(ConfigurationLoadError) -> Configuration {
        var files: [Configuration] = []
        for path in paths {
            let bytes: [UInt8]
            do { bytes = try FileBytes.read(path) } catch { throw .system(error) }
            do {
                files.append(try Configuration.parse(String(decoding: bytes, as: UTF8.self), file: path))
            } catch { throw .configuration(error) }
        }
        return Configuration.merged(files)
    }
}
