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

    /// `SYN_REPORT`: pairs this frame's contacts with the live ones, greedily by tracking id or distance.
    mutating func matchFramePoints() {
        var claimed = UInt64(0)  // bit per frame point, at most `maximumSlots` (64) of them
        for i in slots.indices where slots[i].live {
            var best = -1
            var bestDistance = Int64.max
            for (j, p) in framePoints.enumerated() where claimed & (1 << UInt64(j)) == 0 {
                let d: Int64
                if device.hasTrackingID && p.trackingID >= 0 {
                    d = p.trackingID == slots[i].trackingID ? 0 : Int64.max
                } else {
                    let dx = Int64(p.x) - Int64(slots[i].x)
                    let dy = Int64(p.y) - Int64(slots[i].y)
                    d = dx * dx + dy * dy
                }
                if d < bestDistance {
                    bestDistance = d
                    best = j
                }
            }
            let s = slots[i]
            if best < 0 {
                slots[i].live = false
                changes.append(ContactChange(.ended, index: i, x: s.x, y: s.y, pressure: s.pressure))
                continue
            }
            claimed |= 1 << UInt64(best)
            let p = framePoints[best]
            if p.x != s.x || p.y != s.y || p.pressure != s.pressure {
                slots[i].x = p.x
                slots[i].y = p.y
                slots[i].pressure = p.pressure
                changes.append(ContactChange(.moved, index: i, x: p.x, y: p.y, pressure: p.pressure))
            }
        }
        for (j, p) in framePoints.enumerated() where claimed & (1 << UInt64(j)) == 0 {
            guard let free = slots.firstIndex(where: { !$0.live }) else { break }
            slots[free] = p
            slots[free].live = true
            changes.append(ContactChange(.began, index: free, x: p.x, y: p.y, pressure: p.pressure))
        }
        framePoints.removeAll(keepingCapacity: true)
    }
}
