/// Why `calibrate` cannot start on a device.
enum CalibrateError: Error, CustomStringConvertible {
    case notTouch(String)
    var description: String {
        switch self {
        case .notTouch(let m): return m + "; `pressurectl devices` lists the touch devices and their pressure"
        }
    }
}
