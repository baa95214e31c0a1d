/// One frame of multi-touch protocol A, where each frame lists every contact anew, closed one by one
/// with `SYN_MT_REPORT`: the contacts as they arrive, and which of them continue which of the tracker's
/// occupied places. Contacts are paired by tracking id where the device sends one, otherwise by nearest
/// position (the order of anonymous contacts is not stable on real panels). Kept apart from
/// ``ContactTracker`` because assembling and pairing anonymous contacts is protocol A's alone; what a
/// paired contact then amounts to is judged by the tracker, as for a protocol B slot.
struct ProtocolAFrame: Sendable {
    /// The frame's contacts so far, in the order they were closed.
    private(set) var points: [SlotState] = []
    /// The pairs ``pair(with:device:)`` found, closest first: a place and the contact that continues it.
    private(set) var pairs: [(slot: Int, point: Int)] = []
    /// A bit for each of ``points`` that ``pair(with:device:)`` gave a place.
    private(set) var claimed = UInt64(0)
    /// The contact being assembled until `SYN_MT_REPORT`.
    private var pending = SlotState()
    private var pendingHasData = false

    init(capacity: Int) {
        points.reserveCapacity(capacity)
    }

    /// One `ABS_MT_*` event of the contact being assembled; codes the device does not report are ignored.
    mutating func handle(code: UInt16, value: Int32, device: TouchDevice) {
        switch code {
        case AbsCode.mtPositionX:
            pending.x = device.xAxis.clamp(value)
        case AbsCode.mtPositionY:
            pending.y = device.yAxis.clamp(value)
        case AbsCode.mtPressure:
            pending.pressure = (device.pressureAxis ?? AbsInfo(minimum: 0, maximum: 0)).clamp(value)
            pending.pressureSent = true
        case AbsCode.mtTrackingID:
            pending.trackingID = value
        case AbsCode.mtToolType where device.hasToolType:
            pending.toolType = value
        case AbsCode.mtDistance where device.hasHoverDistance:
            pending.distance = value
        case AbsCode.mtTouchMajor where device.touchMajorAxis != nil:
            pending.touchMajor = value
            pending.majorSent = true
        default:
            return
        }
        pendingHasData = true
    }

    /// `SYN_MT_REPORT`: the contact being assembled joins the frame, if fewer than `capacity` have. An
    /// empty report (the "no contacts" marker) adds nothing. False when a contact was dropped for want
    /// of room, for the tracker's diagnostics.
    mutating func closeContact(capacity: Int) -> Bool {
        guard pendingHasData else { return true }
        let fits = points.count < capacity
        if fits { points.append(pending) }
        pending = SlotState()
        pendingHasData = false
        return fits
    }

    /// Pairs the frame's contacts with the occupied places of `slots`, closest pair first, into
    /// ``pairs`` and ``claimed``. A contact that would have jumped more than a sixth of the surface
    /// diagonal in one frame continues no place: it is a lift plus a new touch, not a move.
    mutating func pair(with slots: [SlotState], device: TouchDevice) {
        pairs.removeAll(keepingCapacity: true)
        claimed = 0  // bit per frame point, at most `maximumSlots` (64) of them
        var matched = UInt64(0)  // bit per slot
        let dx = Double(device.xAxis.span), dy = Double(device.yAxis.span)
        let limit = Int64((dx * dx + dy * dy) / 36)
        while true {
            var best = (slot: -1, point: -1, distance: Int64.max)
            for i in slots.indices where slots[i].contact.isOccupied && matched & (1 << UInt64(i)) == 0 {
                for (j, p) in points.enumerated() where claimed & (1 << UInt64(j)) == 0 {
                    let d = Self.distance(slots[i], p, limit: limit, device: device)
                    if d < best.distance { best = (i, j, d) }
                }
            }
            guard best.slot >= 0 else { break }
            claimed |= 1 << UInt64(best.point)
            matched |= 1 << UInt64(best.slot)
            pairs.append((best.slot, best.point))
        }
    }

    /// The frame is over: its contacts are forgotten, keeping their storage.
    mutating func endFrame() {
        points.removeAll(keepingCapacity: true)
    }

    /// After `SYN_DROPPED`: the frame's contacts, and the one being assembled, are unknown.
    mutating func discard() {
        points.removeAll(keepingCapacity: true)
        pendingHasData = false
    }

    /// Squared distance between an occupied place and a frame's contact; `Int64.max` where they cannot be
    /// the same finger.
    private static func distance(_ s: SlotState, _ p: SlotState, limit: Int64, device: TouchDevice) -> Int64 {
        if device.hasTrackingID && p.trackingID >= 0 {
            return p.trackingID == s.trackingID ? 0 : Int64.max
        }
        let dx = Int64(p.x) - Int64(s.x)
        let dy = Int64(p.y) - Int64(s.y)
        let d = dx * dx + dy * dy
        return d <= limit ? d : Int64.max
    }
}
