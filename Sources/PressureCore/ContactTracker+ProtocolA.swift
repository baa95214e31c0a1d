/// Multi-touch protocol A: each frame lists every contact anew, closed one by one with `SYN_MT_REPORT`.
/// Contacts are matched to the previous frame's by tracking id where the device sends one, otherwise by
/// nearest position (the order of anonymous contacts is not stable on real panels).
extension ContactTracker {
    mutating func handleAnonymous(code: UInt16, value: Int32) {
        switch code {
        case AbsCode.mtPositionX:
            pendingPoint.x = device.xAxis.clamp(value)
        case AbsCode.mtPositionY:
            pendingPoint.y = device.yAxis.clamp(value)
        case AbsCode.mtPressure:
            pendingPoint.pressure = (device.pressureAxis ?? AbsInfo(minimum: 0, maximum: 0)).clamp(value)
        case AbsCode.mtTrackingID:
            pendingPoint.trackingID = value
        default:
            return
        }
        pendingPointHasData = true
    }

    /// `SYN_MT_REPORT`: the contact being assembled joins the frame. An empty report (the "no contacts"
    /// marker) adds nothing.
    mutating func closePoint() {
        guard pendingPointHasData else { return }
        if framePoints.count < slots.count {
            framePoints.append(pendingPoint)
        } else {
            diagnostics.contactsBeyondCapacity += 1
        }
        pendingPoint = SlotState()
        pendingPointHasData = false
    }

    /// `SYN_REPORT`: pairs this frame's contacts with the live ones, closest pair first (by tracking id where
    /// the device sends one). A contact that would have jumped more than a sixth of the surface diagonal in
    /// one frame is taken as a lift plus a new touch, not a move.
    mutating func matchFramePoints() {
        var claimed = UInt64(0)  // bit per frame point, at most `maximumSlots` (64) of them
        var matched = UInt64(0)  // bit per slot
        let dx = Double(device.xAxis.span), dy = Double(device.yAxis.span)
        let limit = Int64((dx * dx + dy * dy) / 36)
        while true {
            var best = (slot: -1, point: -1, distance: Int64.max)
            for i in slots.indices where slots[i].live && matched & (1 << UInt64(i)) == 0 {
                for (j, p) in framePoints.enumerated() where claimed & (1 << UInt64(j)) == 0 {
                    let d = distance(slots[i], p, limit: limit)
                    if d < best.distance { best = (i, j, d) }
                }
            }
            guard best.slot >= 0 else { break }
            claimed |= 1 << UInt64(best.point)
            matched |= 1 << UInt64(best.slot)
            let p = framePoints[best.point]
            let s = slots[best.slot]
            if p.x != s.x || p.y != s.y || p.pressure != s.pressure {
                slots[best.slot].x = p.x
                slots[best.slot].y = p.y
                slots[best.slot].pressure = p.pressure
                changes.append(ContactChange(.moved, index: best.slot, x: p.x, y: p.y, pressure: p.pressure))
            }
        }
        for i in slots.indices where slots[i].live && matched & (1 << UInt64(i)) == 0 {
            let s = slots[i]
            slots[i].live = false
            changes.append(ContactChange(.ended, index: i, x: s.x, y: s.y, pressure: s.pressure))
        }
        for (j, p) in framePoints.enumerated() where claimed & (1 << UInt64(j)) == 0 {
            guard let free = slots.firstIndex(where: { !$0.live }) else { break }
            slots[free] = p
            slots[free].live = true
            changes.append(ContactChange(.began, index: free, x: p.x, y: p.y, pressure: p.pressure))
        }
        framePoints.removeAll(keepingCapacity: true)
    }

    /// Squared distance between a live contact and a frame's contact; `Int64.max` where they cannot be the
    /// same finger.
    private func distance(_ s: SlotState, _ p: SlotState, limit: Int64) -> Int64 {
        if device.hasTrackingID && p.trackingID >= 0 {
            return p.trackingID == s.trackingID ? 0 : Int64.max
        }
        let dx = Int64(p.x) - Int64(s.x)
        let dy = Int64(p.y) - Int64(s.y)
        let d = dx * dx + dy * dy
        return d <= limit ? d : Int64.max
    }
}
