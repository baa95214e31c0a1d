/// Ending contacts from outside the event stream: after `SYN_DROPPED`, when the device goes away, and
/// when a daemon resynced with libevdev.
extension ContactTracker {
    /// After `SYN_DROPPED`: every live contact is cancelled, and every slot that held a contact (touching,
    /// hovering or a palm) is ignored until that contact ends, since what happened to it is unknown.
    /// Protocol A restates every contact in each frame, so its table simply empties.
    mutating func cancelAll() {
        changes.removeAll(keepingCapacity: true)
        let anonymous = device.contactProtocol == .anonymous
        for i in slots.indices {
            let s = slots[i]
            if s.contact == .touching {
                changes.append(ContactChange(.cancelled, index: i, x: s.x, y: s.y, pressure: s.pressure))
            }
            if s.contact.isOccupied { slots[i].contact = anonymous ? .idle : .ignored(.dropped) }
            slots[i].dirty = false
            slots[i].changed = false
            slots[i].lifted = false
            (slots[i].pressureSent, slots[i].majorSent) = (false, false)
        }
        dirtyList.removeAll(keepingCapacity: true)
        protocolA.discard()
    }

    /// Ends every live contact as cancelled, e.g. when the device goes away or a replay ends.
    /// ``changes`` then holds the cancellations.
    public mutating func cancelLiveContacts() {
        cancelAll()
        for i in slots.indices { slots[i] = SlotState() }
    }

    /// A daemon that resynced with libevdev after `SYN_DROPPED` hands over the true tracking id of each slot
    /// (`-1` for empty). Contacts that vanished or changed id are cancelled; contacts that are still down
    /// carry on (a move); new ones begin; a palm stays ignored while its id lasts. Tool type, distance and
    /// touch major are whatever the events before the resync said (the daemon restates libevdev's values
    /// as events first). A single-touch panel passes one slot, touching or not; without `BTN_TOUCH` its
    /// pressure is judged here, with the tracker's own hysteresis. ``changes`` then holds the result.
    public mutating func resync(slots truth: [SlotTruth]) {
        changes.removeAll(keepingCapacity: true)
        dropping = false
        for i in slots.indices {
            let t = i < truth.count ? truth[i] : .empty
            // The truth is known again: a contact ignored for a drop is judged afresh.
            if slots[i].contact == .ignored(.dropped) { slots[i].contact = .idle }
            let single = device.contactProtocol == .singleTouch
            let lifted = !single && slots[i].contact.isOccupied && slots[i].trackingID != t.trackingID
            (slots[i].liftX, slots[i].liftY, slots[i].liftPressure) = (slots[i].x, slots[i].y, slots[i].pressure)
            slots[i].liftSizeEcho = slots[i].sizeEcho
            slots[i].trackingID = t.trackingID
            slots[i].x = clamp(t.x, device.xAxis)
            slots[i].y = clamp(t.y, device.yAxis)
            slots[i].pressure = clamp(t.pressure, pressureAxis)
            slots[i].dirty = false
            slots[i].lifted = false
            // A contact that carries on is reported as moved: where it is now is news.
            slots[i].changed = true
            let reading: SlotContact.Reading
            if single {
                if device.hasTouchButton { touchButton = t.trackingID >= 0 }
                reading = singleTouchReading(slots[i]) ? .touching : .absent
            } else {
                reading = t.trackingID < 0 ? .absent : self.reading(of: slots[i])
            }
            finishFrame(ofSlot: i, lifted: lifted, reading: reading, endAs: .cancelled)
        }
        dirtyList.removeAll(keepingCapacity: true)
    }
}
