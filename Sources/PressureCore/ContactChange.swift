/// What happened to one contact in one frame, as the tracker reports it. `index` is the tracker's
/// place for the contact (a slot number, or a place in its table for protocol A), stable while the
/// contact lives; the pipeline gives each contact its own id.
public struct ContactChange: Hashable, Sendable {
    public enum Phase: Hashable, Sendable {
        case began, moved, ended, cancelled
        /// Cancelled because the contact turned out to be a palm (`MT_TOOL_PALM`, or larger than the palm
        /// size). For gestures exactly `cancelled` (an open peek is dismissed); kept apart so that what
        /// learns from contacts can leave palms out.
        case cancelledAsPalm
    }

    public var phase: Phase
    public var index: Int
    public var x: Int32
    public var y: Int32
    public var pressure: Int32
    /// How the contact's pressure stood to its touch major up to this frame (at its end, for the whole contact).
    public var sizeEcho: SizeEcho

    @inlinable public init(
        _ phase: Phase, index: Int, x: Int32, y: Int32, pressure: Int32, sizeEcho: SizeEcho = .unseen
    ) {
        self.phase = phase
        self.index = index
        self.x = x
        self.y = y
        self.pressure = pressure
        self.sizeEcho = sizeEcho
    }
}

/// Odd input the tracker coped with, counted so tools can report it; nothing here stops a replay.
public struct TrackerDiagnostics: Hashable, Sendable {
    /// Events addressed to a slot outside the declared range (ignored).
    public var eventsForUnknownSlots = 0
    /// `SYN_DROPPED` seen (each one cancels the contacts whose state became unknown).
    public var droppedReports = 0
    /// A new tracking id on a slot that still held one, without a lift in between: ignored, as libevdev
    /// ignores it, so the contact carries on.
    public var trackingIDsReplacedWithoutLift = 0
    /// Protocol A frames with more contacts than the tracker keeps (the extra ones are ignored).
    public var contactsBeyondCapacity = 0
    /// Values outside the declared axis range (clamped).
    public var valuesClamped = 0
    /// Contacts taken for palms because the firmware marked them `MT_TOOL_PALM`, each counted once: never
    /// reported if they were palms from the start, cancelled otherwise.
    public var palmsByToolType = 0
    /// Contacts taken for palms because their touch major exceeded the palm size, each counted once.
    public var palmsBySize = 0

    /// Every contact taken for a palm.
    public var palms: Int { palmsByToolType + palmsBySize }

    public init() {}
}
