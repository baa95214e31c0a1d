import PressureCapture
import PressureCore

/// Why a capture could not be loaded: the file system, or the file's contents.
public enum CaptureLoadError: Error, CustomStringConvertible {
    case system(SystemError)
    case capture(CaptureError)

    public var description: String {
        switch self {
        case .system(let e): return e.description
        case .capture(let e): return e.description
        }
    }
}
