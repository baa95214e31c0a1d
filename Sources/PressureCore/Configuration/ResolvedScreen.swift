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

extension ResolvedScreen {
    /// The screen geometry of `device`, given the device sections that match it in merge order: size and
    /// rotation from the last of them that give them (default: the device's own axis ranges as pixels, no rotation); the calibration matrix from
    /// the configuration, else from udev's `LIBINPUT_CALIBRATION_MATRIX` (`udevMatrix`), else identity.
    static func resolve(for device: TouchDevice, sections: [DeviceSection], udevMatrix: [Double]?) -> ResolvedScreen {
        var g = ScreenGeometry.deviceUnits(device)
        var sizeSource = "default (device units)"
        var inDeviceUnits = true
        var matrixSource = "default (identity)"
        if let m = udevMatrix {
            g.matrix = m
            matrixSource = "udev LIBINPUT_CALIBRATION_MATRIX"
        }
        for section in sections {
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
