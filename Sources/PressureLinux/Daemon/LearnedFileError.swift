import PressureCore

/// Why a learned-average file named on the command line cannot be used.
public enum LearnedFileError: Error, CustomStringConvertible {
    case system(SystemError)
    case state(LearnedStateError)
    case noPressure(String)

    public var description: String {
        switch self {
        case .system(let e): return e.description
        case .state(let e): return e.description
        case .noPressure(let path): return "\(path): the capture's device has no pressure, so nothing is learned for it"
        }
    }
}
