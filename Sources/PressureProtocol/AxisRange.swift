/// A position axis as DEVICE describes it, `{"min":…,"max":…}` in device units. Two integers rather
/// than a `ClosedRange`, which would trap on a daemon that ever sent `min > max`.
public struct AxisRange: Hashable, Sendable {
    public var minimum: Int32
    public var maximum: Int32

    public init(minimum: Int32, maximum: Int32) {
        self.minimum = minimum
        self.maximum = maximum
    }
}
