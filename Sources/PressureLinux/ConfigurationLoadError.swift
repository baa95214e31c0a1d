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
