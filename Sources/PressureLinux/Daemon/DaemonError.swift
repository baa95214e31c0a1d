/// Why the daemon could not start.
public enum DaemonError: Error, CustomStringConvertible {
    case system(SystemError)
    case listener(ListenerError)
    case configuration(ConfigurationLoadError)
    case replay(CaptureLoadError)
    case replayNotTouch(String)
    case learned(LearnedFileError)

    public var description: String {
        switch self {
        case .system(let e): return e.description
        case .listener(let e): return e.description
        case .configuration(let e): return e.description
        case .replay(let e): return e.description
        case .replayNotTouch(let p): return "\(p): no touch device in this capture"
        case .learned(let e): return e.description
        }
    }
}
