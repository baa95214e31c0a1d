import CLibevdev
import CLinux
import Glibc
import PressureCommandLine
import PressureCore

/// Filter mode's clone of a grabbed panel (`docs/filter.md`): a uinput device with the panel's axes,
/// ranges, resolution and properties, named "<name> (pressured)", to which the daemon writes every frame of
/// the panel in the wake-up that read it, after the pipeline has seen it. Nothing changes on the way but
/// the tool type of the slots whose touches were cancelled (``write(_:cancelling:)``): `MT_TOOL_PALM` from
/// the frame that took them until they lift, which libinput turns into `TOUCH_CANCEL` for a touch it began,
/// and compositors into `wl_touch.cancel`.
///
/// The grab and the clone belong to descriptors: a daemon that exits or crashes releases the panel, and
/// the kernel ends the clone's open touches with it. Under systemd the daemon also puts the clone's
/// descriptor in the unit's file descriptor store, so the clone outlives a crash or a watchdog kill: the
/// compositor keeps the device it has open, and the restarted daemon takes it back
/// (``init(adopting:panelName:panelNode:panelSlot:slots:singleTouch:marksPalms:)``), cancelling the touches
/// the old one left down on it.
public final class TouchClone {
    /// What the clone's name ends with; discovery never serves a device so named (pressured's own).
    public static let nameSuffix = " (pressured)"
    /// The clone's `phys`, before the panel's node: udev rules match it to leave the clone alone.
    public static let physPrefix = "pressured-clone:"

    /// The clone's event node (`/dev/input/eventN`), for the log and the docs' checks.
    public let node: String
    /// `FilterPalms`: the palms the tracker detects are marked on the clone too.
    public let marksPalms: Bool
    private var uinput: OpaquePointer?
    /// The uinput descriptor the clone is written through (systemd's store keeps a copy of it).
    public let descriptor: Int32
    /// Whether this clone was taken back from systemd's store rather than made (it then has no libevdev
    /// uinput handle).
    public let adopted: Bool
    /// The panel's current slot as its frames leave it (`ABS_MT_SLOT` is sent only when it changes).
    private var currentSlot: Int32 = 0
    /// Per slot: whether the clone's tool type there is `MT_TOOL_PALM` (it stays so past the lift, until the
    /// slot's next contact begins and is made a finger again).
    private var palm: [Bool]
    /// A single-touch panel's one slot (``SingleTouchSlot``); nil for a panel with slots of its own.
    private var singleTouch: SingleTouchSlot?
    /// A single-touch panel's frame with its slot's events, kept between frames.
    private var translated: [InputEvent] = []
    /// Per slot: the tracking id the clone has there (-1: no contact), for the resync to end on the clone the
    /// contacts the panel lost while events were dropped.
    private var tracking: [Int32]
    /// The frame being written, kept between frames.
    private var out: [input_event] = []
    /// A failed write was logged: one line, not one a frame.
    private var warned = false
    /// Whether the clone can still be written (``close()`` not called).
    private var open = true

    /// What the names of clones in systemd's file descriptor store start with (``storeName(panelNode:)``).
    public static let storePrefix = "pressured-clone-"

    /// The name the clone of the panel at `panelNode` is stored under in systemd's file descriptor store
    /// (`FDNAME=`: printable, no `:`): the prefix and the node's last component (`pressured-clone-event4`).
    public static func storeName(panelNode: String) -> String {
        let last = panelNode.split(separator: "/").last.map(String.init) ?? panelNode
        return storePrefix + String(last.unicodeScalars.filter { $0.isASCII && $0.value > 32 && $0 != ":" })
    }

    /// Whether `name` is a clone's (this daemon's or another's).
    public static func isClone(named name: String) -> Bool { name.hasSuffix(nameSuffix) }

    /// Makes the clone of the panel libevdev reads as `dev` (opened from `panelNode`): its description with
    /// ``nameSuffix`` and ``physPrefix``, and `ABS_MT_TOOL_TYPE` where the panel lacks it (no palm could be
    /// told otherwise). The panel's own handle is left as it was.
    convenience init(cloning dev: OpaquePointer, panelNode: String, slots: Int, marksPalms: Bool) throws(SystemError) {
        let name = libevdev_get_name(dev).map { String(cString: $0) } ?? "touchscreen"
        let phys = libevdev_get_phys(dev).map { String(cString: $0) }
        let abs = UInt32(EV_ABS), toolType = UInt32(AbsCode.mtToolType)
        let addsToolType = libevdev_has_event_code(dev, abs, toolType) == 0
        libevdev_set_name(dev, name + Self.nameSuffix)
        libevdev_set_phys(dev, Self.physPrefix + panelNode)
        if addsToolType {
            var info = input_absinfo(value: 0, minimum: 0, maximum: MTTool.maximum, fuzz: 0, flat: 0, resolution: 0)
            _ = libevdev_enable_event_code(dev, abs, toolType, &info)
        }
        // No fuzz on the clone: the kernel filtered the panel's values already, and filtering them again
        // on the way through the clone would drop or average some.
        let fuzzy = (0..<UInt32(ABS_CNT)).filter { (libevdev_get_abs_info(dev, $0)?.pointee.fuzz ?? 0) != 0 }
        let fuzz = fuzzy.map { libevdev_get_abs_fuzz(dev, $0) }
        for code in fuzzy { libevdev_set_abs_fuzz(dev, code, 0) }
        let made = Self.create(from: dev, phys: Self.physPrefix + panelNode)
        libevdev_set_name(dev, name)
        libevdev_set_phys(dev, phys)
        for (code, f) in zip(fuzzy, fuzz) { libevdev_set_abs_fuzz(dev, code, f) }
        if addsToolType { _ = libevdev_disable_event_code(dev, abs, toolType) }
        try self.init(made, slots: slots, marksPalms: marksPalms, singleTouch: nil)
    }

    /// Makes the one-slot clone of a single-touch panel described by `panel` (opened from `panelNode`):
    /// ``SingleTouchSlot/cloneDescription(of:)`` under the clone's name and phys.
    convenience init(singleTouch panel: DeviceDescription, panelNode: String, marksPalms: Bool) throws(SystemError) {
        var described = SingleTouchSlot.cloneDescription(of: panel)
        described.name = panel.name + Self.nameSuffix
        guard let dev = EvdevDescription.libevdev(describing: described) else {
            throw SystemError(call: "libevdev (the one-slot clone's description)", subject: panelNode, errno: EINVAL)
        }
        defer { libevdev_free(dev) }
        let made = Self.create(from: dev, phys: Self.physPrefix + panelNode)
        try self.init(made, slots: 1, marksPalms: marksPalms, singleTouch: SingleTouchSlot(panel: panel))
    }

    /// A uinput device made from `dev` with `phys` (which libevdev does not pass on: the kernel's
    /// `UI_SET_PHYS` on our own descriptor first, so udev rules and a restarted daemon can tell a clone's
    /// panel).
    private static func create(from dev: OpaquePointer, phys: String) -> Result<OpaquePointer, SystemError> {
        // Written only: the clone plays no force feedback, so nothing comes back to read.
        let fd = Glibc.open("/dev/uinput", O_WRONLY | O_CLOEXEC)
        if fd < 0 { return .failure(SystemError(call: "open", subject: "/dev/uinput", errno: errno)) }
        if pressured_uinput_set_phys(fd, phys) < 0 {
            let e = errno
            Glibc.close(fd)
            return .failure(SystemError(call: "UI_SET_PHYS", subject: "/dev/uinput", errno: e))
        }
        var created: OpaquePointer?
        let rc = libevdev_uinput_create_from_device(dev, fd, &created)
        guard rc == 0, let created else {
            Glibc.close(fd)
            return .failure(SystemError(call: "libevdev_uinput_create_from_device", subject: "/dev/uinput", errno: rc < 0 ? -rc : EIO))
        }
        return .success(created)
    }

    private convenience init(_ made: Result<OpaquePointer, SystemError>, slots: Int, marksPalms: Bool, singleTouch: SingleTouchSlot?) throws(SystemError) {
        let created = try made.get()
        self.init(uinput: created, descriptor: libevdev_uinput_get_fd(created),
                  node: libevdev_uinput_get_devnode(created).map { String(cString: $0) } ?? "(no node)",
                  slots: slots, marksPalms: marksPalms, singleTouch: singleTouch)
    }

    /// Takes back the clone systemd kept (`fd`, from its store) for the panel named `panelName` at
    /// `panelNode`, if the kernel says it is that panel's clone (its name and phys); otherwise throws
    /// `ESTALE`, and `fd` is left to the caller. The touches the previous daemon left down on it are
    /// cancelled at once (``endContacts(currentSlot:)``): the panel, grabbed again with no touch down, goes on
    /// from `panelSlot`.
    public convenience init(adopting fd: Int32, panelName: String, panelNode: String, panelSlot: Int32, slots: Int,
                            singleTouch: DeviceDescription?, marksPalms: Bool) throws(SystemError) {
        let want = (name: panelName + Self.nameSuffix, phys: Self.physPrefix + panelNode)
        let identity = UinputIdentity(descriptor: fd)
        guard let identity, identity.name == want.name, identity.phys == want.phys else {
            let found = identity.map { "\"\($0.name)\" at \"\($0.phys)\"" } ?? "no device the kernel names"
            throw SystemError(call: "filter mode (the clone systemd kept is \(found), not this panel's)",
                              subject: panelNode, errno: ESTALE)
        }
        self.init(uinput: nil, descriptor: fd, node: identity.node, slots: slots, marksPalms: marksPalms,
                  singleTouch: singleTouch.map(SingleTouchSlot.init(panel:)))
        endContacts(currentSlot: panelSlot)
    }

    private init(uinput: OpaquePointer?, descriptor: Int32, node: String, slots: Int, marksPalms: Bool,
                 singleTouch: SingleTouchSlot?) {
        self.uinput = uinput
        self.descriptor = descriptor
        adopted = uinput == nil
        self.node = node
        self.marksPalms = marksPalms
        self.singleTouch = singleTouch
        palm = Array(repeating: false, count: max(1, slots))
        tracking = Array(repeating: -1, count: max(1, slots))
        out.reserveCapacity(64)
        translated.reserveCapacity(singleTouch == nil ? 0 : 64)
    }

    /// Whether the clone's one slot is made here from a single-touch panel, following what the tracker made
    /// of each frame (``write(_:cancelling:held:)``'s `held`).
    public var makesItsSlot: Bool { singleTouch != nil }

    deinit { close() }

    /// Destroys the clone (the panel went, or filter mode is off for it now): the kernel ends its open
    /// touches, and the device goes even while systemd's store still holds a copy of its descriptor.
    public func close() {
        guard open else { return }
        // A clone taken back has no libevdev handle: the kernel's UI_DEV_DESTROY is what libevdev would do.
        if let u = uinput { libevdev_uinput_destroy(u) } else { _ = pressured_uinput_destroy(descriptor) }
        Glibc.close(descriptor)  // ours either way (opened in create, or passed back by systemd)
        uinput = nil
        open = false
    }

    /// Cancels every touch down on the clone: each slot becomes a palm and lifts, in one frame (libinput
    /// turns a begun touch's palm into `TOUCH_CANCEL`; the kernel drops the lifts of empty slots), and the
    /// slot's next contact is made a finger again as after any cancel. For a clone taken back after a crash,
    /// and for the daemon's exit while systemd keeps the clone for the next run. `currentSlot`: the panel's.
    public func endContacts(currentSlot slot: Int32) {
        guard open else { return }
        out.removeAll(keepingCapacity: true)
        for s in palm.indices {
            append(EventType.abs, AbsCode.mtSlot, Int32(s))
            append(EventType.abs, AbsCode.mtToolType, MTTool.palm)
            append(EventType.abs, AbsCode.mtTrackingID, -1)
            palm[s] = true
            tracking[s] = -1
        }
        // Every touch and tool button up (the kernel passes on those the clone has and that were down).
        for code in UInt16(BTN_DIGI)...UInt16(BTN_TOOL_QUADTAP) { append(EventType.key, code, 0) }
        currentSlot = max(0, min(slot, Int32(palm.count - 1)))
        append(EventType.abs, AbsCode.mtSlot, currentSlot)
        append(EventType.syn, SynCode.report, 0)
        flush()
    }

    /// Writes `events` (a frame of the panel, up to and with its `SYN_REPORT`, or the start of one) to the
    /// clone in one `write(2)`; before the `SYN_REPORT`, the slots in `cancelling` whose clone tool type is
    /// not a palm yet become one. A slot's next contact is made a finger again just before its tracking id,
    /// and the panel's own tool type is not passed on for a slot marked a palm. A single-touch panel's
    /// frame gets its slot's events first, `held` saying whether the tracker has the panel held after it.
    func write(_ events: ArraySlice<InputEvent>, cancelling: [Int], held: Bool = false) {
        guard open else { return }
        if singleTouch != nil {
            translated.removeAll(keepingCapacity: true)
            singleTouch?.translate(events, held: held, into: &translated)
            rewrite(translated[...], cancelling: cancelling)
        } else {
            rewrite(events, cancelling: cancelling)
        }
    }

    private func rewrite(_ events: ArraySlice<InputEvent>, cancelling: [Int]) {
        out.removeAll(keepingCapacity: true)
        // The panel's tool type for a slot marked a palm: dropped (the clone keeps the palm until the
        // contact lifts), unless the slot's next contact begins in this frame, which then takes it.
        var heldTool: (slot: Int32, value: Int32)? = nil
        for e in events {
            if e.type == EventType.abs {
                switch e.code {
                case AbsCode.mtSlot:
                    currentSlot = e.value
                case AbsCode.mtToolType where isPalm(currentSlot):
                    heldTool = (currentSlot, e.value)
                    continue
                case AbsCode.mtTrackingID where e.value >= 0 && isPalm(currentSlot):
                    // The new contact's tool type (a finger) before its tracking id: libinput reads the
                    // slot's tool type as the touch begins, and a touch that begins a palm it never reports.
                    let tool = heldTool.flatMap { $0.slot == currentSlot ? $0.value : nil } ?? MTTool.finger
                    append(EventType.abs, AbsCode.mtToolType, tool)
                    palm[Int(currentSlot)] = false
                default:
                    break
                }
            } else if e.type == EventType.syn && e.code == SynCode.report {
                markPalms(cancelling)
            }
            if e.type == EventType.abs && e.code == AbsCode.mtTrackingID && tracking.indices.contains(Int(currentSlot)) {
                tracking[Int(currentSlot)] = e.value
            }
            append(e.type, e.code, e.value)
        }
        flush()
    }

    /// After `SYN_DROPPED` and libevdev's resync: the panel's whole state, from `dev`, as one frame (the
    /// clone's kernel side drops what did not change), so no touch is left down on the clone that the
    /// panel no longer has; before it, a frame lifting the clone's contacts that the panel ended or replaced,
    /// and a finger again for a new contact in a palm's slot, as ``write(_:cancelling:held:)`` does. A
    /// single-touch panel's state goes through its slot as a frame like any other (`held`: whether the tracker
    /// has the panel held after the resync).
    func restate(from dev: OpaquePointer, cancelling: [Int], held: Bool) {
        guard open else { return }
        let abs = UInt32(EV_ABS)
        if singleTouch != nil {
            // The panel's values as one frame of its own, through the slot like any other.
            var frame: [InputEvent] = []
            let time = Timestamp(microseconds: 0)
            Self.singleTouchState(of: dev) { frame.append(InputEvent(time: time, type: $0, code: $1, value: $2)) }
            frame.append(InputEvent(time: time, type: EventType.syn, code: SynCode.report, value: 0))
            write(frame[...], cancelling: cancelling, held: held)
            return
        }
        out.removeAll(keepingCapacity: true)
        let slots = min(libevdev_get_num_slots(dev), Int32(tracking.count))
        let now = (0..<max(0, slots)).map { libevdev_get_slot_value(dev, UInt32($0), UInt32(AbsCode.mtTrackingID)) }
        // The clone's contacts the panel ended or replaced meanwhile lift first, in a frame of their own: a
        // tracking id straight after another is "a double tracking ID" that libevdev drops (the old touch would
        // go on where the new one is), and libinput takes no lift and touch of one slot in one frame.
        for s in 0..<max(0, slots) where tracking[Int(s)] >= 0 && now[Int(s)] != tracking[Int(s)] {
            append(EventType.abs, AbsCode.mtSlot, s)
            append(EventType.abs, AbsCode.mtTrackingID, -1)
            tracking[Int(s)] = -1
        }
        if !out.isEmpty {
            append(EventType.syn, SynCode.report, 0)
            flush()
            out.removeAll(keepingCapacity: true)
        }
        let mtCodes = (AbsCode.mtSlot + 1...UInt16(ABS_MT_TOOL_Y)).filter {
            $0 != AbsCode.mtToolType && libevdev_has_event_code(dev, abs, UInt32($0)) != 0
        }
        for s in 0..<max(0, slots) {
            append(EventType.abs, AbsCode.mtSlot, s)
            if isPalm(s) && now[Int(s)] >= 0 && tracking[Int(s)] < 0 {  // a new contact in a palm's slot: a finger
                append(EventType.abs, AbsCode.mtToolType, MTTool.finger)
                palm[Int(s)] = false
            }
            tracking[Int(s)] = now[Int(s)]
            for code in mtCodes { append(EventType.abs, code, libevdev_get_slot_value(dev, UInt32(s), UInt32(code))) }
        }
        Self.singleTouchState(of: dev) { append($0, $1, $2) }
        currentSlot = max(0, libevdev_get_current_slot(dev))
        markPalms(cancelling)
        append(EventType.abs, AbsCode.mtSlot, currentSlot)
        append(EventType.syn, SynCode.report, 0)
        flush()
    }

    /// The panel's axes below the multi-touch ones and its touch and tool buttons, as libevdev holds them.
    private static func singleTouchState(of dev: OpaquePointer, _ put: (UInt16, UInt16, Int32) -> Void) {
        let abs = UInt32(EV_ABS), key = UInt32(EV_KEY)
        for code in 0..<AbsCode.mtSlot where libevdev_has_event_code(dev, abs, UInt32(code)) != 0 {
            put(EventType.abs, code, libevdev_get_event_value(dev, abs, UInt32(code)))
        }
        for code in UInt16(BTN_DIGI)...UInt16(BTN_TOOL_QUADTAP) where libevdev_has_event_code(dev, key, UInt32(code)) != 0 {
            put(EventType.key, code, libevdev_get_event_value(dev, key, UInt32(code)))
        }
    }

    private func isPalm(_ slot: Int32) -> Bool { slot >= 0 && Int(slot) < palm.count && palm[Int(slot)] }

    /// The slots to cancel that are not palms on the clone yet become palms; the current slot is put back.
    private func markPalms(_ cancelling: [Int]) {
        var marked = false
        for s in cancelling where s >= 0 && s < palm.count && !palm[s] {
            append(EventType.abs, AbsCode.mtSlot, Int32(s))
            append(EventType.abs, AbsCode.mtToolType, MTTool.palm)
            palm[s] = true
            marked = true
        }
        if marked { append(EventType.abs, AbsCode.mtSlot, currentSlot) }
    }

    private func append(_ type: UInt16, _ code: UInt16, _ value: Int32) {
        out.append(input_event(time: timeval(), type: type, code: code, value: value))
    }

    /// One write of the frame: the kernel stamps the clone's events as they arrive.
    private func flush() {
        guard !out.isEmpty else { return }
        let written = out.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        if written < 0 && errno != EINTR && !warned {
            warned = true
            Log.warning("\(node): writing the clone: \(String(cString: strerror(errno)))")
        }
    }
}
