import PressureCore

/// Filter mode's hold (`FilterMethod = hold`, `docs/filter.md`): which touches a device's clone holds back
/// until pressured knows what they are, decided here (``HeldTouches``), kept from the clone by its
/// ``CloneRewriter``.
extension Hub {
    /// The clone of `device` holds (`on`: it was made in hold mode) or no longer does.
    public mutating func holdTouches(device id: Int, _ on: Bool) {
        held.set(device: id, on)
    }

    /// What the clone of `device` is told after the frames handed over, or the timer's tick
    /// (``CloneHolds``): the slots whose touch is still held, and those whose held touch a gesture took.
    public mutating func heldSlots(device id: Int) -> CloneHolds {
        held.holds(device: id) ? held.verdicts(device: id) : .none
    }

    /// A touch began on a device whose clone holds: held if it began in a region whose owner wants a
    /// gesture that would take it, until the long-press time at the latest.
    mutating func holdIfTakeable(_ e: PressureEvent, deviceAt i: Int) {
        let pipeline = devices.entries[i].pipeline
        guard regions.wouldTake(e), let slot = pipeline.slot(ofContact: e.contact) else { return }
        held.began(e.contactKey, slot: slot, deadline: e.time + pipeline.thresholds.longPressDuration)
    }

    /// Lets go of the held touches of the device at `i` that moved beyond the slop or are due by `time`
    /// (the device's clock). A long press due at the same time came first (the pipeline ticks before), so a
    /// region that wants it takes the touch instead.
    mutating func letGoHeld(deviceAt i: Int, at time: Timestamp) {
        let id = devices.entries[i].id
        guard held.holds(device: id) else { return }
        let pipeline = devices.entries[i].pipeline
        held.letGo(device: id) { key, t in t.deadline <= time || pipeline.hasMoved(contact: key.contact) }
    }

    /// The timer reached `now` (the loop's clock): every holding device's due touches are let go.
    mutating func letGoHeld(now: Timestamp) {
        for i in devices.entries.indices {
            guard let t = devices.entries[i].clock.deviceTime(at: now) else { continue }
            letGoHeld(deviceAt: i, at: t)
        }
    }

    /// The earliest time a held touch is let go, on the loop's clock.
    var heldDeadline: Timestamp? {
        var earliest: Timestamp? = nil
        for d in devices.entries {
            guard let due = held.nextDeadline(device: d.id), let t = d.clock.hubTime(of: due) else { continue }
            earliest = .earliest(earliest, t)
        }
        return earliest
    }
}
