/// Turns raw pressure into force with iOS `UITouch` semantics.
///
/// `force` 1.0 is an average touch: the raw value `average`. Raw values at or below `floor` (sensor noise,
/// a resting finger) are force 0. `top` is the top of the usable range; ``maximumPossibleForce`` is the
/// force there, and no force is ever larger. The prior for a device nobody calibrated
/// (``uncalibrated(axis:)``) puts the average touch at 45% of the axis range: on the real panels measured
/// (`docs/gestures.md`) an ordinary touch peaks at 24–67% of the range, median per device, and 45% is
/// the middle of that. (iOS's 15%, where the top reads 6.67, made nearly every ordinary touch on those
/// panels peek.) A device whose average is learned uses it only until it has learned.
public struct ForceCalibration: Hashable, Sendable {
    /// Raw noise floor: at or below it, force is 0.
    public var floor: Int32
    /// Raw value of an average touch: force 1.0.
    public var average: Int32
    /// Raw top of the usable range: `maximumPossibleForce`.
    public var top: Int32

    /// Fraction of the axis range at which an uncalibrated device's average touch sits (the prior).
    public static let defaultAverageFraction = 0.45

    /// Checks the ordering `floor < average <= top`; the configuration parser reports violations.
    public init?(floor: Int32, average: Int32, top: Int32) {
        guard floor < average, average <= top else { return nil }
        self.floor = floor
        self.average = average
        self.top = top
    }

    /// The documented defaults for a pressure axis nobody calibrated: floor at the axis minimum,
    /// average touch at 45% of the range, top at the axis maximum.
    public static func uncalibrated(axis: AbsInfo) -> ForceCalibration {
        let lo = Int64(axis.minimum)
        let span = axis.span
        let avg = lo + max(1, Int64((Double(span) * defaultAverageFraction).rounded()))
        let top = max(avg, lo + span)
        return ForceCalibration(
            floor: axis.minimum, average: Int32(clamping: avg), top: Int32(clamping: top))
            ?? ForceCalibration(unchecked: axis.minimum &- 1, axis.minimum, axis.minimum)
    }

    private init(unchecked floor: Int32, _ average: Int32, _ top: Int32) {
        self.floor = floor
        self.average = average
        self.top = top
    }

    /// The force at the top of the usable range.
    public var maximumPossibleForce: Double { Double(top - floor) / Double(average - floor) }

    /// Force for a raw pressure value; clamped to `0...maximumPossibleForce`.
    @inlinable public func force(raw: Int32) -> Double {
        let clamped = min(max(raw, floor), top)
        return Double(clamped - floor) / Double(average - floor)
    }

    /// The raw value at which `force` is reached (rounded up), for thresholds in raw units.
    public func raw(forForce force: Double) -> Int32 {
        let r = Double(floor) + force * Double(average - floor)
        // Up, but not for the last bits of floating-point noise (1.7 × 450 is 765, not 766).
        return Int32(clamping: Int64((r - 1e-9 * max(1, abs(r))).rounded(.up)))
    }
}
