/// A device section's keys: matching, calibration, the screen it sits on and telling touches apart
/// (`docs/configuration.md`).
struct DeviceSectionReader: ConfigurationValueReading {
    let file: String
    let lineNumber: Int

    func read(_ key: String, _ value: String, into s: inout DeviceSection) throws(ConfigurationError) {
        let raw = "an integer from \(Int32.min) to \(Int32.max) (raw pressure units; decimal or 0x hex)"
        let id = "an integer from 0 to 0xffff (hex with 0x, or decimal)"
        switch key {
        case DeviceSection.Key.matchName:
            try requireValue(key, value, "a glob such as *FlatFrog*")
            do throws(Glob.Problem) {
                s.match.name = try Glob(value)
            } catch {
                throw fail(.malformedGlob(key: key, pattern: value, problem: error))
            }
        case DeviceSection.Key.matchVendor:
            s.match.vendor = UInt16(truncatingIfNeeded: try integer(key, value, in: 0...0xFFFF, id))
        case DeviceSection.Key.matchProduct:
            s.match.product = UInt16(truncatingIfNeeded: try integer(key, value, in: 0...0xFFFF, id))
        case DeviceSection.Key.matchBus:
            try requireValue(key, value, "a bus name or number")
            if let number = DeviceMatch.busNumber(named: value) {
                s.match.bus = number
            } else if case .value(let number) = Self.parseInteger(value) {
                guard (0...0xFFFF).contains(number) else {
                    throw fail(.outOfRange(key: key, value: value, expected: "a bus number from 0 to 0xffff"))
                }
                s.match.bus = UInt16(truncatingIfNeeded: number)
            } else {
                throw fail(.invalidBus(key: key, value: value))
            }
        case DeviceSection.Key.floor:
            s.floor = Int32(truncatingIfNeeded: try integer(key, value, in: Int64(Int32.min)...Int64(Int32.max), raw))
        case DeviceSection.Key.average:
            s.average = Int32(truncatingIfNeeded: try integer(key, value, in: Int64(Int32.min)...Int64(Int32.max), raw))
        case DeviceSection.Key.top:
            s.top = Int32(truncatingIfNeeded: try integer(key, value, in: Int64(Int32.min)...Int64(Int32.max), raw))
        case DeviceSection.Key.screenSize, DeviceSection.Key.screenRotation, DeviceSection.Key.calibrationMatrix:
            try screenKey(key, value, in: &s.screen)
        case DeviceSection.Key.touchDown, DeviceSection.Key.touchUp, DeviceSection.Key.palmSize:
            try trackingKey(key, value, in: &s)
        case DeviceSection.Key.filter:
            s.filter = try boolean(key, value)
        case DeviceSection.Key.filterPalms:
            s.filterPalms = try boolean(key, value)
        case DeviceSection.Key.filterMethod:
            s.filterMethod = try choice(key, value, FilterMethod.allCases.map { ($0.rawValue, $0) })
        default:
            throw fail(.unknownDeviceKey(key: key, section: s.title))
        }
    }

    /// `ScreenSize=1920x1080`, `ScreenRotation=0|90|180|270`, `CalibrationMatrix=a b c d e f`.
    func screenKey(_ key: String, _ value: String, in o: inout ScreenOverride) throws(ConfigurationError) {
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

    /// `PressureTouchDown`, `PressureTouchUp`, `PalmSizeMm` in a device section. When one section gives
    /// both thresholds, down must be above up (checked at the second of the two).
    func trackingKey(_ key: String, _ value: String, in s: inout DeviceSection) throws(ConfigurationError) {
        let raw = "an integer from \(Int32.min) to \(Int32.max) (raw pressure units; decimal or 0x hex)"
        let all = Int64(Int32.min)...Int64(Int32.max)
        switch key {
        case DeviceSection.Key.touchDown:
            s.tracking.touchDown = Int32(truncatingIfNeeded: try integer(key, value, in: all, raw))
        case DeviceSection.Key.touchUp:
            s.tracking.touchUp = Int32(truncatingIfNeeded: try integer(key, value, in: all, raw))
        default:
            s.tracking.palmSize = try palmSize(key, value)
            return
        }
        if let down = s.tracking.touchDown, let up = s.tracking.touchUp, down <= up {
            let other = key == DeviceSection.Key.touchDown ? DeviceSection.Key.touchUp : DeviceSection.Key.touchDown
            throw fail(.touchThresholdsReversed(down: down, up: up, otherLine: s.keyLines[other] ?? s.line))
        }
    }
}
