import PressureCommandLine
import PressureLinux

/// Why a capture could not be set up for a replay: the message names the file (and line).
public enum ReplaySetupError: Error, CustomStringConvertible {
    case usage(OptionReader.UsageError)
    case configuration(ConfigurationLoadError)
    case capture(CaptureLoadError)
    case learned(LearnedFileError)

    public var description: String {
        switch self {
        case .usage(let e): return e.description
        case .configuration(let e): return e.description
        case .capture(let e): return e.description
        case .learned(let e): return e.description
        }
    }
}
