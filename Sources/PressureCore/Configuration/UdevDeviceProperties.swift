/// What udev says about a device that pressured uses, read from its properties (set by a rule or a hwdb
/// entry, as `LIBINPUT_CALIBRATION_MATRIX` and `EVDEV_ABS_*` are for libinput):
///
/// | property | meaning |
/// |---|---|
/// | `PRESSURED_PRESSURE_FLOOR`, `PRESSURED_PRESSURE_AVERAGE`, `PRESSURED_PRESSURE_TOP` | calibration, raw units |
/// | `LIBINPUT_CALIBRATION_MATRIX` | the screen calibration matrix, `a b c d e f` |
///
/// Precedence, lowest first: the documented defaults, these properties, the configuration files.
/// Malformed values are ignored and listed in ``problems`` for the log.
public struct UdevDeviceProperties: Hashable, Sendable {
    public static let floorKey = "PRESSURED_PRESSURE_FLOOR"
    public static let averageKey = "PRESSURED_PRESSURE_AVERAGE"
    public static let topKey = "PRESSURED_PRESSURE_TOP"
    public static let matrixKey = "LIBINPUT_CALIBRATION_MATRIX"

    public var floor: Int32?
    public var average: Int32?
    public var top: Int32?
    public var calibrationMatrix: [Double]?
    /// `KEY="value"` of each property that could not be used.
    public var problems: [String] = []

    public init() {}

    public init(_ properties: [String: String]) {
        func integer(_ key: String) -> Int32? {
            guard let text = properties[key] else { return nil }
            if let v = Int32(text.trimmingPrefix(while: { $0 == " " })) { return v }
            problems.append("\(key)=\"\(text)\" (expected an integer)")
            return nil
        }
        floor = integer(Self.floorKey)
        average = integer(Self.averageKey)
        top = integer(Self.topKey)
        if let text = properties[Self.matrixKey] {
            calibrationMatrix = ScreenGeometry.parseMatrix(text)
            if calibrationMatrix == nil { problems.append("\(Self.matrixKey)=\"\(text)\" (expected six numbers)") }
        }
    }

    /// How `pressurectl devices` names a value that came from udev.
    public static func source(_ key: String) -> String { "udev \(key)" }
}
