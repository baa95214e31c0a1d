import Glibc
import PressureCore
import PressureLinux

/// Why the section was not written, and what to do instead.
enum CalibrationWriteError: Error, CustomStringConvertible {
    case cannotWrite(SystemError)
    case wouldBreak(ConfigurationError)

    var description: String {
        switch self {
        case .cannotWrite(let e):
            let hint: String
            switch e.errno {
            case EACCES, EPERM, EROFS: hint = "run as root (sudo) or give --write FILE in a folder you can write"
            case ENOENT: hint = "create the folder first, or give --write FILE elsewhere"
            default: hint = "give --write FILE elsewhere, or copy the section printed above by hand"
            }
            return "cannot write the configuration: \(e); \(hint)"
        case .wouldBreak(let e):
            return "not written: with the new section the file would not parse (\(e)); fix the file first"
        }
    }
}
