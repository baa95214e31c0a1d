import CLibevdev
import Glibc
import PressureCore

/// The read loop of ``EvdevDevice``, apart from the device so that tests can drive it with a scripted
/// `libevdev_next_event` and an in-memory libevdev holding the state a resync reports.
enum EvdevReader {
    /// `libevdev_next_event` (flags, event out) → status or negative errno.
    typealias NextEvent = (_ flags: UInt32, _ event: inout input_event) -> Int32

    static let normal = LIBEVDEV_READ_FLAG_NORMAL.rawValue
    static let sync = LIBEVDEV_READ_FLAG_SYNC.rawValue
    static let success = Int32(LIBEVDEV_READ_STATUS_SUCCESS.rawValue)
    static let syncStatus = Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue)

    /// Reads until the device has nothing more (`-EAGAIN`), a resync, or an error. Appends without
    /// allocating while `events` has capacity; only a resync allocates (its slot list). Every call goes
    /// through the funnel (``nonblockingLibevdevCall(_:_:_:)``): `-EINTR` is retried there.
    static func read(
        _ dev: OpaquePointer, node: String, into events: inout [InputEvent], next: NextEvent
    ) -> DeviceReadOutcome {
        var ev = input_event()
        while true {
            let rc: Int32
            do {
                guard let r = try nonblockingLibevdevCall(call, node, { next(normal, &ev) }) else { return .ok }
                rc = r
            } catch { return failure(error) }
            if rc == success {
                events.append(inputEvent(ev))
                continue
            }
            guard rc == syncStatus else { return unexpected(rc, node: node) }
            // `ev` is the SYN_DROPPED. libevdev now queues events restating the device's state; they
            // are only needed to update libevdev's own copy, which the resync then reads directly.
            let dropped = inputEvent(ev)
            var time = dropped.time
            while true {
                let s: Int32?
                do { s = try nonblockingLibevdevCall(call, node, { next(sync, &ev) }) } catch { return failure(error) }
                guard let s else { break }  // -EAGAIN: the device's state is restated in full
                guard s == syncStatus || s == success else { return unexpected(s, node: node) }
                time = max(time, inputEvent(ev).time)
            }
            switch resyncMode(dev) {
            case .anonymous:
                // Protocol A keeps no state worth restoring: every frame restates all contacts. The
                // tracker's own SYN_DROPPED handling (cancel, then wait for a full frame) is right.
                events.append(dropped)
                continue
            case .slotted, .singleTouch:
                appendRestatement(dev, at: time, to: &events)
                return .resynced(slots: slotTruth(dev), at: time)
            }
        }
    }

    static let call = "libevdev_next_event"

    /// An unplugged device (`ENODEV`) is an ordinary event; anything else ends reading it.
    private static func failure(_ error: SystemError) -> DeviceReadOutcome {
        error.errno == ENODEV ? .gone : .failed(error)
    }

    /// A status libevdev documents no meaning for: reported as an I/O error rather than read past.
    private static func unexpected(_ status: Int32, node: String) -> DeviceReadOutcome {
        .failed(SystemError(call: "\(call) (status \(status))", subject: node, errno: EIO))
    }

    /// The kernel's `struct input_event`; on 64-bit Linux its time is a `struct timeval`.
    @inline(__always)
    static func inputEvent(_ e: input_event) -> InputEvent {
        InputEvent(
            time: Timestamp(seconds: Int64(e.time.tv_sec), microseconds: Int64(e.time.tv_usec)),
            type: e.type, code: e.code, value: e.value)
    }

    enum ResyncMode { case slotted, anonymous, singleTouch }

    /// Decided from libevdev as ``TouchDevice`` decides it from the description: slots, else
    /// multi-touch positions without slots, else a single contact.
    static func resyncMode(_ dev: OpaquePointer) -> ResyncMode {
        if libevdev_get_num_slots(dev) > 0 { return .slotted }
        if libevdev_has_event_code(dev, UInt32(EV_ABS), UInt32(ABS_MT_POSITION_X)) != 0 { return .anonymous }
        return .singleTouch
    }

    /// The state a resync reports: every slot's tracking id, position and pressure, or for a single-touch
    /// panel its one contact (tracking id 0 while touching, -1 otherwise).
    static func slotTruth(_ dev: OpaquePointer) -> [SlotTruth] {
        let slots = libevdev_get_num_slots(dev)
        if slots > 0 {
            let count = min(Int(slots), TouchDevice.maximumSlots)
            var truth: [SlotTruth] = []
            truth.reserveCapacity(count)
            for s in 0..<UInt32(count) {
                // An axis the device lacks reads as 0, which is what the tracker assumes for it too.
                truth.append(SlotTruth(
                    trackingID: libevdev_get_slot_value(dev, s, UInt32(ABS_MT_TRACKING_ID)),
                    x: libevdev_get_slot_value(dev, s, UInt32(ABS_MT_POSITION_X)),
                    y: libevdev_get_slot_value(dev, s, UInt32(ABS_MT_POSITION_Y)),
                    pressure: libevdev_get_slot_value(dev, s, UInt32(ABS_MT_PRESSURE))))
            }
            return truth
        }
        let abs = UInt32(EV_ABS)
        let pressure = libevdev_get_event_value(dev, abs, UInt32(ABS_PRESSURE))
        let touching: Bool
        if libevdev_has_event_code(dev, UInt32(EV_KEY), UInt32(BTN_TOUCH)) != 0 {
            touching = libevdev_get_event_value(dev, UInt32(EV_KEY), UInt32(BTN_TOUCH)) != 0
        } else {
            // Pressure above the minimum; the tracker judges such a panel's pressure again with its own
            // touch thresholds (``ContactTracker/resync(slots:)``), so this only fills the slot.
            let minimum = libevdev_get_abs_info(dev, UInt32(ABS_PRESSURE))?.pointee.minimum ?? 0
            touching = pressure > minimum
        }
        return [SlotTruth(
            trackingID: touching ? 0 : -1,
            x: libevdev_get_event_value(dev, abs, UInt32(ABS_X)),
            y: libevdev_get_event_value(dev, abs, UInt32(ABS_Y)),
            pressure: pressure)]
    }

    /// State the tracker keeps outside the slots, restated as events (no `SYN_REPORT`, so they complete
    /// no frame): the discarded sync events would have carried it, and the kernel repeats none of it while
    /// it stays the same.
    /// - `ABS_MT_SLOT`: events after the drop may address the current slot without naming it;
    /// - `BTN_TOUCH`: ``TouchPipeline/resync(slots:at:)`` does not update the tracker's copy, so a finger
    ///   put down during the drop would otherwise end on its next frame;
    /// - each slot's `ABS_MT_TOOL_TYPE`, `ABS_MT_DISTANCE` and `ABS_MT_TOUCH_MAJOR`, where the device has
    ///   them: the resync's slot list lacks them, and they tell palms and hovering contacts.
    static func appendRestatement(_ dev: OpaquePointer, at time: Timestamp, to events: inout [InputEvent]) {
        let slots = libevdev_get_num_slots(dev)
        if slots > 0 {
            let restated = [AbsCode.mtToolType, AbsCode.mtDistance, AbsCode.mtTouchMajor].filter {
                libevdev_has_event_code(dev, UInt32(EV_ABS), UInt32($0)) != 0
            }
            if !restated.isEmpty {
                for s in 0..<min(Int32(slots), Int32(TouchDevice.maximumSlots)) {
                    events.append(InputEvent(time: time, type: EventType.abs, code: AbsCode.mtSlot, value: s))
                    for code in restated {
                        let value = libevdev_get_slot_value(dev, UInt32(s), UInt32(code))
                        events.append(InputEvent(time: time, type: EventType.abs, code: code, value: value))
                    }
                }
            }
            let slot = libevdev_get_current_slot(dev)
            events.append(InputEvent(time: time, type: EventType.abs, code: AbsCode.mtSlot, value: slot))
        } else if libevdev_has_event_code(dev, UInt32(EV_KEY), UInt32(BTN_TOUCH)) != 0 {
            let touch = libevdev_get_event_value(dev, UInt32(EV_KEY), UInt32(BTN_TOUCH))
            events.append(InputEvent(time: time, type: EventType.key, code: KeyCode.btnTouch, value: touch))
        }
    }
}
