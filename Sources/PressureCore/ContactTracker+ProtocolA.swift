/// Multi-touch protocol A: each frame lists every contact anew, closed one by one with `SYN_MT_REPORT`.
/// Contacts are matched to the previous frame's by tracking id where the device sends one, otherwise by
/// nearest position (the order of anonymous contacts is not stable on real panels). Hovering contacts and
/// palms take part in the matching, so that a palm stays ignored, and a hovering contact stays one
/// contact, for as long as it is listed; each goes through ``SlotContact`` like a protocol B slot.
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
        case AbsCode.mtToolType where device.hasToolType:
            pendingPoint.toolType = value
        case AbsCode.mtDistance where device.hasHoverDistance:
            pendingPoint.distance = value
        case AbsCode.mtTouchMajor where device.touchMajorAxis != nil:
            pendingPoint.touchMajor = value
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

    /// `SYN_REPORT`: pairs this frame's contacts with the occupied places, closest pair first (by tracking
    /// id where the device sends one). A contact that would have jumped more than a sixth of the surface
    /// diagonal in one frame is taken as a lift plus a new touch, not a move.
    mutating func matchFramePoints() {
        var claimed = UInt64(0)  // bit per frame point, at most `maximumSlots` (64) of them
        var matched = UInt64(0)  // bit per slot
        let dx = Double(device.xAxis.span), dy = Double(device.yAxis.span)
        let limit = Int64((dx * dx + dy * dy) / 36)
        while true {
            var best = (slot: -1, point: -1, distance: Int64.max)
            for i in slots.indices where slots[i].contact.isOccupied && matched & (1 << UInt64(i)) == 0 {
                for (j, p) in framePoints.enumerated() where claimed & (1 << UInt64(j)) == 0 {
                    let d = distance(slots[i], p, limit: limit)
                    if d < best.distance { best = (i, j, d) }
                }
            }
            guard best.slot >= 0 else { break }
            claimed |= 1 << UInt64(best.point)
            matched |= 1 << UInt64(best.slot)
            let p = framePoints[best.point]
            var s = slots[best.slot]
            s.changed = p.x != s.x || p.y != s.y || p.pressure != s.pressure
            (s.x, s.y, s.pressure) = (p.x, p.y, p.pressure)
            (s.toolType, s.distance, s.touchMajor) = (p.toolType, p.distance, p.touchMajor)
            slots[best.slot] = s
            settle(best.slot, lifted: false, reading: reading(of: s))
        }
        for i in slots.indices where slots[i].contact.isOccupied && matched & (1 << UInt64(i)) == 0 {
            settle(i, lifted: false, reading: .absent)
        }
        for (j, p) in framePoints.enumerated() where claimed & (1 << UInt64(j)) == 0 {
            guard let free = slots.firstIndex(where: { !$0.contact.isOccupied }) else { break }
            slots[free] = p
            settle(free, lifted: false, reading: reading(of: p))
        }
        framePoints.removeAll(keepingCapacity: true)
    }

    /// Squared distance between an occupied place and a frame's contact; `Int64.max` where they cannot be
    /// the same finger.
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
