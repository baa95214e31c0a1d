/// What apps receive: a gesture, or (for those who asked) a touch phase, with force in `UITouch` terms.
public struct PressureEvent: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case gesture(GestureKind)
        case touch(TouchPhase)
    }

    /// `UITouch.Phase`, as far as apps need it.
    public enum TouchPhase: String, Hashable, Sendable, CaseIterable {
        case began, moved, ended, cancelled
    }

    public var kind: Kind
    /// The input frame's timestamp: a gesture carries the time of the frame that crossed its threshold.
    public var time: Timestamp
    public var device: Int
    /// Stable for the life of a touch, never reused on a device.
    public var contact: UInt64
    /// Position in device units.
    public var x: Int32
    public var y: Int32
    /// Position on the screen in pixels (``ScreenGeometry``).
    public var screenX: Double
    public var screenY: Double
    /// 0 where force is unavailable.
    public var force: Double
    /// 0 where force is unavailable.
    public var maximumPossibleForce: Double
    /// Touches only: progress towards the next threshold (peek, then pop), 0…1; nil past the last one
    /// or where force is unavailable.
    public var progress: Double?

    public init(
        kind: Kind, time: Timestamp, device: Int, contact: UInt64, x: Int32, y: Int32,
        screenX: Double = 0, screenY: Double = 0, force: Double, maximumPossibleForce: Double,
        progress: Double? = nil
    ) {
        self.kind = kind
        self.time = time
        self.device = device
        self.contact = contact
        self.x = x
        self.y = y
        self.screenX = screenX
        self.screenY = screenY
        self.force = force
        self.maximumPossibleForce = maximumPossibleForce
        self.progress = progress
    }

    /// The `type` of the wire format.
    public var typeName: String {
        switch kind {
        case .gesture(let g): return g.rawValue
        case .touch: return "touch"
        }
    }

    /// The gesture, for a gesture event.
    public var gesture: GestureKind? {
        if case .gesture(let g) = kind { return g }
        return nil
    }

    /// The phase, for a `touch` event.
    public var phase: TouchPhase? {
        if case .touch(let p) = kind { return p }
        return nil
    }
}
