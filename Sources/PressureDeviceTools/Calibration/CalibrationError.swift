/// Why `pressurectl calibrate` makes no calibration, and what to do about it: the device is no touch
/// device with pressure, or the measurements do not make one.
public enum CalibrationError: Error, Equatable, CustomStringConvertible {
    /// The device cannot be calibrated: why (no touch device, no pressure axis).
    case notTouch(String)
    case noTaps
    case noPresses
    /// The taps barely rose above the lightest touches: the floor and the average touch meet.
    case tapsTooLight(floor: Int32, average: Int32)
    /// The firm presses peaked below the ordinary taps.
    case pressesNotFirmer(average: Int32, top: Int32)

    public var description: String {
        switch self {
        case .notTouch(let m): return m + "; `pressurectl devices` lists the touch devices and their pressure"
        case .noTaps: return "no taps were measured: tap the surface a few times as you normally would"
        case .noPresses: return "no firm presses were measured: press firmly a few times in the second phase"
        case .tapsTooLight(let floor, let average):
            return "the taps peaked at \(average), no higher than the lightest touches (\(floor)): tap with a normal touch, not a graze, and run calibrate again"
        case .pressesNotFirmer(let average, let top):
            return "the firm presses peaked at \(top), below the ordinary taps (\(average)): press harder in the second phase (or tap more lightly in the first) and run calibrate again"
        }
    }
}
