/// What one slot truly holds after a `SYN_DROPPED` resync, as libevdev reports it once the dropped events
/// are gone: the slot's tracking id (`-1` for no contact), position and pressure. A single-touch panel has
/// one such slot (tracking id `0` while touching). ``TouchPipeline/resync(slots:at:)`` takes one a slot.
public struct SlotTruth: Hashable, Sendable {
    /// The slot's `ABS_MT_TRACKING_ID`: `-1` when it holds no contact.
    public var trackingID: Int32
    public var x: Int32
    public var y: Int32
    public var pressure: Int32

    public init(trackingID: Int32, x: Int32, y: Int32, pressure: Int32) {
        self.trackingID = trackingID
        self.x = x
        self.y = y
        self.pressure = pressure
    }

    /// An empty slot.
    public static let empty = SlotTruth(trackingID: -1, x: 0, y: 0, pressure: 0)
}
