/// Where a device's average touch (force 1.0) comes from, as `status` reports it (`averageSource`).
public enum AverageTouchSource: String, Hashable, Sendable, CaseIterable {
    /// A configuration section or a udev property sets it.
    case configured
    /// Learned from this device's touches.
    case learned
    /// The axis default: learning is off and nothing configures it.
    case prior
}
