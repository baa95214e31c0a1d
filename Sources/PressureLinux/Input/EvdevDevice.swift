import CLibevdev
import Glibc
import PressureCommandLine
import PressureCore

/// One open evdev node (`/dev/input/eventN`): libevdev holds its description, its grab and its state after
/// a resync; its events are read with `read(2)` (``EvdevReader``).
///
/// Opened non-blocking: the owner waits on ``fd`` with epoll (level-triggered) and calls ``read(into:)``
/// when it is readable. Event times are on `CLOCK_MONOTONIC`, the clock timerfd deadlines use, so a long-press
/// deadline computed from an event time can be armed as it is. Not thread-safe: one owner, one thread.
public final class EvdevDevice {
    /// The node this was opened from, for messages.
    public let node: String
    /// The descriptor to wait on; -1 once closed.
    public private(set) var fd: Int32
    /// What the device says about itself, read once at open.
    public let description: DeviceDescription
    private var dev: OpaquePointer?
    /// Where a `read` puts the kernel's events, kept for the device's life: no allocation a read.
    private let batch = UnsafeMutableBufferPointer<input_event>.allocate(capacity: EvdevReader.batch)

    /// Opens `node` (`O_RDONLY | O_NONBLOCK | O_CLOEXEC`), sets the event clock to `CLOCK_MONOTONIC`
    /// and, with `grab`, takes the device for itself (`EVIOCGRAB`: nobody else, the compositor included,
    /// then sees its events; the default leaves it shared).
    ///
    /// A node that is not an evdev device fails in `libevdev_new_from_fd` with `ENOTTY`.
    public init(node: String, grab: Bool = false) throws(SystemError) {
        let fd = try syscall("open", node) { open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard let dev = libevdev_new() else {
            Glibc.close(fd)
            throw SystemError(call: "libevdev_new", subject: node, errno: ENOMEM)
        }
        // Before the fd is set, so that what libevdev says while reading the device goes to our log (the
        // log function outlives libevdev_set_fd's reset; its user data pointer does not, so none is used).
        pressured_evdev_set_log_sink(dev, evdevLog, LIBEVDEV_LOG_ERROR)
        func fail(_ call: String, _ rc: Int32) -> SystemError {
            libevdev_free(dev)
            Glibc.close(fd)
            return SystemError(call: call, subject: node, errno: rc < 0 ? -rc : EIO)
        }
        // libevdev_new_from_fd is this pair; split only to install the log function first.
        var rc = libevdev_set_fd(dev, fd)
        if rc < 0 { throw fail("libevdev_new_from_fd", rc) }
        rc = libevdev_set_clock_id(dev, CLOCK_MONOTONIC)
        if rc < 0 { throw fail("libevdev_set_clock_id", rc) }
        if grab {
            rc = libevdev_grab(dev, LIBEVDEV_GRAB)
            if rc < 0 { throw fail("libevdev_grab", rc) }
        }
        self.node = node
        self.fd = fd
        self.dev = dev
        description = EvdevDescription.description(of: dev)
    }

    deinit {
        close()
        batch.deallocate()
    }

    /// The slot the panel's events go to until it says otherwise (`ABS_MT_SLOT`), as the kernel holds it
    /// now (libevdev's copy is only brought up to date by a resync); 0 for a panel without slots, or when
    /// the kernel does not say.
    public var currentSlot: Int32 {
        guard let d = dev, libevdev_get_num_slots(d) > 0 else { return 0 }
        var slot: Int32 = 0
        return pressured_evdev_abs_value(fd, UInt32(ABS_MT_SLOT), &slot) == 0 ? max(0, slot) : 0
    }

    /// Whether a touch is down on the panel now, as the kernel holds it: a slot with a tracking id, or a
    /// single-touch panel's `BTN_TOUCH` (without one, pressure above its minimum), as
    /// ``EvdevReader/slotTruth(_:)`` judges libevdev's copy after a resync. A state the kernel does not
    /// give counts as a touch down: the grab that asks waits rather than risk taking a touch the
    /// compositor saw begin.
    private func touchIsDown(_ d: OpaquePointer) -> Bool {
        let slots = libevdev_get_num_slots(d)
        if slots > 0 {
            // On the stack: asked at every read of a panel waiting to be grabbed.
            return withUnsafeTemporaryAllocation(of: Int32.self, capacity: TouchDevice.maximumSlots) { ids in
                let count = min(Int(slots), ids.count)
                let rc = pressured_evdev_slot_values(fd, UInt32(ABS_MT_TRACKING_ID), ids.baseAddress, UInt32(count))
                return rc != 0 || ids.prefix(count).contains { $0 >= 0 }
            }
        }
        if libevdev_has_event_code(d, UInt32(EV_KEY), UInt32(BTN_TOUCH)) != 0 {
            var down: Int32 = 0
            return pressured_evdev_key_down(fd, UInt32(BTN_TOUCH), &down) != 0 || down != 0
        }
        var pressure: Int32 = 0
        let minimum = libevdev_get_abs_info(d, UInt32(ABS_PRESSURE))?.pointee.minimum ?? 0
        return pressured_evdev_abs_value(fd, UInt32(ABS_PRESSURE), &pressure) != 0 || pressure > minimum
    }

    /// Frees libevdev and closes the descriptor (remove it from epoll first). Closing twice is harmless.
    public func close() {
        if let d = dev { libevdev_free(d) }
        dev = nil
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    /// Filter mode: takes the panel for itself (`EVIOCGRAB`) and makes its clone (``TouchClone``); a panel
    /// another program holds (`EBUSY`), or a clone uinput refuses, fails with the panel left as it was
    /// (not grabbed); a panel with a touch down fails with `EAGAIN`, not grabbed, to be tried again once the
    /// touch has lifted. Touches are cancelled by slot (``TouchDevice/cloneSlots``): a protocol B panel's
    /// clone has its slots, a single-touch touchscreen's gets one (``SingleTouchSlot``); a protocol A
    /// panel or a single-touch touchpad cannot be filtered. `kept`: the clone systemd kept from the last run
    /// (its store), taken back if the kernel says it is this panel's (the clone is then ``TouchClone/adopted``;
    /// otherwise a new one is made and `kept` is left to the caller). `method`: how the clone keeps a taken
    /// touch from the app (``FilterMethod``).
    public func makeClone(marksPalms: Bool, method: FilterMethod, kept: Int32? = nil) throws(SystemError) -> TouchClone {
        guard let d = dev else { throw SystemError(call: "libevdev_grab", subject: node, errno: EBADF) }
        let touch: TouchDevice
        do { touch = try TouchDevice(description) } catch {
            throw SystemError(call: "filter mode (not a touch device)", subject: node, errno: ENOTSUP)
        }
        let slots = libevdev_get_num_slots(d)
        guard let cloneSlots = touch.cloneSlots, cloneSlots == .one || slots > 0 else {
            throw SystemError(call: "filter mode (\(touch.whyNotCancellable ?? "no slots"))", subject: node, errno: ENOTSUP)
        }
        // The compositor saw this panel's touches begin: one grabbed while it is down would end only on
        // the clone, and the compositor would hold it down (libinput then rejects the slot's next touch as
        // a "double tracking ID"). So the grab waits for a panel with no touch down (EAGAIN: try again).
        if touchIsDown(d) {
            throw SystemError(call: "filter mode (a touch is down on it; grabs once it lifts)", subject: node, errno: EAGAIN)
        }
        let rc = libevdev_grab(d, LIBEVDEV_GRAB)
        if rc < 0 { throw SystemError(call: "libevdev_grab", subject: node, errno: -rc) }
        // Events that came as it grabbed may have reached the compositor too, a touch's beginning among
        // them: let go, and grab after reading them.
        if libevdev_has_event_pending(d) > 0 {
            _ = libevdev_grab(d, LIBEVDEV_UNGRAB)
            throw SystemError(call: "filter mode (events came as it grabbed; grabs after them)", subject: node, errno: EAGAIN)
        }
        let hold = method == .hold
            ? TouchClone.Hold(clone: cloneSlots == .one ? SingleTouchSlot.cloneDescription(of: description) : description)
            : nil
        if let kept {
            do {
                return try TouchClone(
                    adopting: kept, panelName: description.name, panelNode: node, panelSlot: currentSlot,
                    slots: cloneSlots == .one ? 1 : Int(slots), singleTouch: cloneSlots == .one ? description : nil,
                    marksPalms: marksPalms, hold: hold)
            } catch {
                Log.warning("\(error); making a new clone")
            }
        }
        do {
            switch cloneSlots {
            case .one: return try TouchClone(singleTouch: description, panelNode: node, marksPalms: marksPalms, hold: hold)
            case .panels:
                return try TouchClone(cloning: d, panelNode: node, slots: Int(slots), marksPalms: marksPalms, hold: hold)
            }
        } catch {
            _ = libevdev_grab(d, LIBEVDEV_UNGRAB)
            throw error
        }
    }

    /// After a resync: the panel's state, as libevdev now holds it, written to its clone as one frame;
    /// `held`: whether the tracker has a single-touch panel held after the resync.
    func restate(_ clone: TouchClone, cancelling: [Int], held: Bool, holds: CloneHolds) {
        guard let d = dev else { return }
        clone.restate(from: d, cancelling: cancelling, held: held, holds: holds)
    }

    /// Reads every event available now, appending them to `events`, without blocking. No allocation
    /// while `events` has capacity (only a resync allocates its slot list).
    ///
    /// After `SYN_DROPPED` libevdev reads the device's state anew (its sync events are discarded), and the outcome is
    /// ``DeviceReadOutcome/resynced(slots:at:)`` with the true state of every slot; the events appended before
    /// it (including any read before the drop) are fed to the pipeline first. A protocol A device has no
    /// slot state: its `SYN_DROPPED` is passed through for the tracker to handle.
    public func read(into events: inout [InputEvent]) -> DeviceReadOutcome {
        guard let d = dev else { return .failed(SystemError(call: EvdevReader.readCall, subject: node, errno: EBADF)) }
        let fd = fd
        return EvdevReader.read(
            d, node: node, into: &events, buffer: batch, readBatch: { Glibc.read(fd, $0, $1) },
            next: { flags, ev in libevdev_next_event(d, flags, &ev) })
    }
}

@available(*, unavailable, message: "an EvdevDevice belongs to the thread that reads it")
extension EvdevDevice: Sendable {}

/// libevdev's messages (a kernel bug it noticed, a misuse) as log lines rather than bare stderr text;
/// formatted by the C shim (`pressured_evdev_log`), which holds the `va_list`.
private func evdevLog(_ dev: OpaquePointer?, _ priority: libevdev_log_priority, _ message: UnsafePointer<CChar>?) {
    guard let message else { return }
    let name = dev.flatMap { libevdev_get_name($0) }.map { String(cString: $0) } ?? "evdev"
    let text = "libevdev: \(name): " + String(cString: message)
    let trimmed = text.hasSuffix("\n") ? String(text.dropLast()) : text
    switch priority {
    case LIBEVDEV_LOG_ERROR: Log.error(trimmed)
    case LIBEVDEV_LOG_INFO: Log.info(trimmed)
    default: Log.debug(trimmed)
    }
}
