/// iOS `UIForceTouchCapability`: what an app may rely on (DEVICE's `forceCapability`). `unavailable` says
/// why in ``ForceUnavailableReason``; long press works either way.
public enum ForceCapability: String, Sendable, CaseIterable {
    case available, unavailable
}
