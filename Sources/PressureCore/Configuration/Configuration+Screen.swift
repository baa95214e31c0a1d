/// What a device section says about the screen a device sits on; every key is optional and the last
/// matching section that gives one wins, as for calibration.
public struct ScreenOverride: Hashable, Sendable {
    public var width: Double?
    public var height: Double?
    public var rotation: ScreenGeometry.Rotation?
    public var matrix: [Double]?

    public init() {}
}

/// Where a device's screen geometry came from, for `pressurectl devices`.
public struct ResolvedScreen: Hashable, Sendable {
    public var geometry: ScreenGeometry
    /// `[title] file:line`, `udev LIBINPUT_CALIBRATION_MATRIX`, or `default`.
    public var matrixSource: String
    public var sizeSource: String
    /// No `ScreenSize` configured: the "screen" is the device's own axis ranges, so `screenX` of a touch
    /// is its `x` (with the identity matrix and no rotation), the axis minimum included.
    public var inDeviceUnits: Bool

    public init(geometry: ScreenGeometry, matrixSource: String, sizeSource: String, inDeviceUnits: Bool) {
        self.geometry = geometry
        self.matrixSource = matrixSource
        self.sizeSource = sizeSource
        self.inDeviceUnits = inDeviceUnits
    }
}

extension Configuration {
    /// The screen geometry of `device`: size and rotation from the last matching sections that give
    /// them (default: the device's own axis ranges as pixels, no rotation); the calibration matrix from
    /// the configuration, else from udev's `LIBINPUT_CALIBRATION_MATRIX` (`udevMatrix`), else identity.
    public func screen(for device: TouchDevice, udevMatrix: [Double]? = nil) -> ResolvedScreen {
        var g = ScreenGeometry.deviceUnits(device)
        var sizeSource = "default (device units)"
        var inDeviceUnits = true
        var matrixSource = "default (identity)"
        if let m = udevMatrix {
            g.matrix = m
            matrixSource = "udev LIBINPUT_CALIBRATION_MATRIX"
        }
        for section in matchingSections(for: device.description) {
            let o = section.screen
            if let w = o.width, let h = o.height {
                g.width = w
                g.height = h
                sizeSource = section.source(of: DeviceSection.Key.screenSize)
                inDeviceUnits = false
            }
            if let r = o.rotation { g.rotation = r }
            if let m = o.matrix {
                g.matrix = m
                matrixSource = section.source(of: DeviceSection.Key.calibrationMatrix)
            }
        }
        return ResolvedScreen(geometry: g, matrixSource: matrixSource, sizeSource: sizeSource, inDeviceUnits: inDeviceUnits)
    }
}

extension ConfigurationParser {
    /// `ScreenSize=1920x1080`, `ScreenRotation=0|90|180|270`, `CalibrationMatrix=a b c d e f`.
    mutating func screenKey(_ key: String, _ value: String, in o: inout ScreenOverride) throws(ConfigurationError) {
        switch key {
        case DeviceSection.Key.screenSize:
            let expected = "WIDTHxHEIGHT in pixels, each from 1 to 100000 (e.g. 1920x1080)"
            try requireValue(key, value, expected)
            let parts = value.split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else {
                throw fail(.invalidNumber(key: key, value: value, expected: expected))
            }
            guard (1...100_000).contains(w), (1...100_000).contains(h) else {
                throw fail(.outOfRange(key: key, value: value, expected: expected))
            }
            o.width = Double(w)
            o.height = Double(h)
        case DeviceSection.Key.screenRotation:
            let expected = "0, 90, 180 or 270 (degrees clockwise)"
            try requireValue(key, value, expected)
            guard let n = Int(value), let r = ScreenGeometry.Rotation(rawValue: n) else {
                throw fail(.invalidNumber(key: key, value: value, expected: expected))
            }
            o.rotation = r
        default:
            let expected = "six numbers a b c d e f (libinput's calibration matrix)"
            try requireValue(key, value, expected)
            guard let m = ScreenGeometry.parseMatrix(value) else {
                throw fail(.invalidNumber(key: key, value: value, expected: expected))
            }
            o.matrix = m
        }
    }
}
