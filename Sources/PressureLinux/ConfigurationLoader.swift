import PressureCore

/// Why configuration could not be loaded: a file that cannot be read, or one whose text is wrong
/// (the error names the file and line).
public enum ConfigurationLoadError: Error, CustomStringConvertible {
    case system(SystemError)
    case configuration(ConfigurationError)

    public var description: String {
        switch self {
        case .system(let e): return e.description
        case .configuration(let e): return e.description
        }
    }
}

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

/// The calibration a device gets: from the configuration where sections match, else the documented
/// defaults; nil where the device has no pressure.
public enum DeviceCalibration {
    public static func resolve(
        device: TouchDevice, configuration: Configuration?, udev: UdevDeviceProperties = UdevDeviceProperties()
    ) throws(ConfigurationLoadError) -> ResolvedCalibration? {
        guard device.hasPressure, let axis = device.pressureAxis else { return nil }
        let config = configuration ?? Configuration()
        do {
            return try config.calibration(for: device.description, pressureAxis: axis, udev: udev)
        } catch { throw .configuration(error) }
    }
}
