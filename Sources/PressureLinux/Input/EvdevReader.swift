import CLibevdev
import Glibc
import PressureCore

/// The read loop of ``EvdevDevice``, apart from the device so that tests can drive it with scripted reads
/// and a scripted `libevdev_next_event`, and an in-memory libevdev holding the state a resync reports.
///
/// The events are read with `read(2)`, a batch at a time, and handed on as the kernel wrote them: the
/// pipeline is built for the kernel's stream as it is (it is what a replay feeds it). libevdev is asked
/// only after a `SYN_DROPPED`, to read the device's state anew. Why not every event through
/// `libevdev_next_event`, as before: it checks and copies each event into its own copy of the device's
/// state (a dozen calls into the library an event), which on the live path in the VM cost more than the
/// daemon's whole tracking, force and gestures, and its read loop makes a second `read` a wake-up to be
/// told `EAGAIN`; read here, a batch the kernel did not fill says it had no more (`docs/performance.md`).
enum EvdevReader {
    /// One `read(2)` of the device into the buffer (its address, its size in bytes): what `read` returns,
    /// -1 with errno set on failure.
    typealias ReadBatch = (_ into: UnsafeMutableRawPointer, _ bytes: Int) -> Int
    /// `libevdev_next_event` (flags, event out) → status or negative errno: the resync's.
    typealias NextEvent = (_ flags: UInt32, _ event: inout input_event) -> Int32

    /// Events a `read` takes at most: the kernel's evdev buffer holds at least 64 (`EVDEV_MIN_BUFFER_SIZE`),
    /// as libevdev's queue; a frame of ten fingers is 41.
    static let batch = 64

    static let forceSync = LIBEVDEV_READ_FLAG_FORCE_SYNC.rawValue
    static let sync = LIBEVDEV_READ_FLAG_SYNC.rawValue
    static let success = Int32(LIBEVDEV_READ_STATUS_SUCCESS.rawValue)
    static let syncStatus = Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue)

    /// Reads until the device has nothing more (a batch not filled, or `EAGAIN`), a resync, or an error,
    /// into `buffer` and on to `events`. Appends without allocating while `events` has capacity; only a
    /// resync allocates (its slot list). Every call goes through the funnel (``nonblockingSyscall(_:_:_:)``,
    /// ``nonblockingLibevdevCall(_:_:_:)``): `EINTR` is retried there. Inlined into its one caller on the
    /// device, so that the reads are direct calls.
    ///
    /// A batch not filled ends the reading although more events may have come since: epoll watches the
    /// device level-triggered, so the loop wakes again for them.
    @inline(__always)
    static func read(
        _ dev: OpaquePointer, node: String, into events: inout [InputEvent],
        buffer: UnsafeMutableBufferPointer<input_event>, readBatch: ReadBatch, next: NextEvent
    ) -> DeviceReadOutcome {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return .ok }
        let size = MemoryLayout<input_event>.stride
        while true {
            let bytes: Int
            do {
                guard let n = try nonblockingSyscall(readCall, node, { readBatch(base, buffer.count * size) }) else {
                    return .ok
                }
                bytes = n
            } catch { return failure(error) }
            guard bytes % size == 0 else {
                return .failed(SystemError(call: "\(readCall) (\(bytes) bytes: not whole events)", subject: node, errno: EIO))
            }
            let count = bytes / size
            for k in 0..<count {
                let e = base[k]
                if e.type == UInt16(EV_SYN) && e.code == UInt16(SYN_DROPPED) {
                    // The kernel lost events: what came after the drop in this batch is superseded by the
                    // state the resync reads (libevdev's sync discards what is still queued in the kernel
                    // too), and the resync happens no earlier than the latest of them.
                    let dropped = inputEvent(e)
                    var time = dropped.time
                    for j in (k + 1)..<count { time = max(time, inputEvent(base[j]).time) }
                    if let outcome = resync(dev, node: node, dropped: dropped, at: time, into: &events, next: next) {
                        return outcome
                    }
                    break  // protocol A: the drop went to the tracker; reading goes on
                }
                events.append(inputEvent(e))
            }
            if count < buffer.count { return .ok }
        }
    }

    /// After a `SYN_DROPPED`: libevdev reads the device's state anew (`LIBEVDEV_READ_FLAG_FORCE_SYNC`, then
    /// its sync events, which only bring its own copy up to date and are discarded here). A slotted or
    /// single-touch panel's state is then restated and the outcome is a resync; nil for a protocol A
    /// panel, which keeps no state worth restoring: every frame restates all contacts, and the tracker's
    /// own `SYN_DROPPED` handling (cancel, then wait for a full frame) is right.
    private static func resync(
        _ dev: OpaquePointer, node: String, dropped: InputEvent, at latest: Timestamp,
        into events: inout [InputEvent], next: NextEvent
    ) -> DeviceReadOutcome? {
        var ev = input_event()
        var time = latest
        do {
            guard let forced = try nonblockingLibevdevCall(nextCall, node, { next(forceSync, &ev) }) else {
                return unexpected(-EAGAIN, node: node)
            }
            guard forced == syncStatus else { return unexpected(forced, node: node) }
            while true {
                guard let s = try nonblockingLibevdevCall(nextCall, node, { next(sync, &ev) }) else { break }
                guard s == syncStatus || s == success else { return unexpected(s, node: node) }
                time = max(time, inputEvent(ev).time)
            }
        } catch { return failure(error) }
        switch resyncMode(dev) {
        case .anonymous:
            events.append(dropped)
            return nil
        case .slotted, .singleTouch:
            appendRestatement(dev, at: time, to: &events)
            return .resynced(slots: slotTruth(dev), at: time)
        }
    }

    static let readCall = "read"
    static let nextCall = "libevdev_next_event"

    /// An unplugged device (`ENODEV`) is an ordinary event; anything else ends reading it.
    private static func failure(_ error: SystemError) -> DeviceReadOutcome {
        error.errno == ENODEV ? .gone : .failed(error)
    }

    /// A status libevdev documents no meaning for: reported as an I/O error rather than read past.
    private static func unexpected(_ status: Int32, node: String) -> DeviceReadOutcome {
        .failed(SystemError(call: "\(nextCall) (status \(status))", subject: node, errno: EIO))
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
