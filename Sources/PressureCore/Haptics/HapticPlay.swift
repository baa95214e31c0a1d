/// A haptic effect to play now: asked of the loop in ``Hub/Work/haptics`` on the very frame that crossed
/// the gesture's threshold, before any client has read the gesture.
public struct HapticPlay: Hashable, Sendable {
    public var gesture: HapticGesture
    /// The touch device and contact whose gesture it is.
    public var device: Int
    public var contact: UInt64
    /// The crossing frame's time stamp (the device's clock): what latency is measured from.
    public var time: Timestamp

    public init(gesture: HapticGesture, device: Int, contact: UInt64, time: Timestamp) {
        self.gesture = gesture
        self.device = device
        self.contact = contact
        self.time = time
    }
}
