import CLibevdev
import CLinux
import Glibc
import PressureCommandLine
import PressureCore

/// Filter mode's clone of a grabbed panel (`docs/filter.md`): a uinput device with the panel's axes,
/// ranges, resolution and properties, named "<name> (pressured)", to which the daemon writes every frame of
/// the panel in the wake-up that read it, after the pipeline has seen it. Nothing changes on the way but
/// the tool type of the slots whose touches were cancelled (``write(_:cancelling:held:)``): `MT_TOOL_PALM`
/// from the frame that took them until they lift, which libinput turns into `TOUCH_CANCEL` for a touch it
/// began, and compositors into `wl_touch.cancel`.
///
/// This is the clone's I/O: making it, taking it back, writing it, destroying it, every call through the
/// syscall funnel. What each write holds is decided by a pure ``CloneRewriter`` (PressureCore), tested
/// frame by frame without uinput.
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
    /// libevdev's handle of a clone made here (nil for one taken back): freed when the clone goes.
    private var uinput: OpaquePointer?
    /// The uinput descriptor the clone is written through (systemd's store keeps a copy of it).
    public let descriptor: Int32
    /// Whether this clone was taken back from systemd's store rather than made (it then has no libevdev
    /// uinput handle).
    public let adopted: Bool
    /// What the clone is written, frame by frame: the panel's frames with their cancels.
    private var rewriter: CloneRewriter
    /// The events of the write being made, kept between frames.
    private var frame: [InputEvent] = []
    /// The same as the kernel takes them, kept between frames.
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
    convenience init(cloning dev: OpaquePointer, panelNode: String, slots: Int, marksPalms: Bool, hold: Hold?) throws(SystemError) {
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
        try self.init(made, slots: slots, marksPalms: marksPalms, singleTouch: nil, hold: hold)
    }

    /// Makes the one-slot clone of a single-touch panel described by `panel` (opened from `panelNode`):
    /// ``SingleTouchSlot/cloneDescription(of:)`` under the clone's name and phys.
    convenience init(singleTouch panel: DeviceDescription, panelNode: String, marksPalms: Bool, hold: Hold?) throws(SystemError) {
        var described = SingleTouchSlot.cloneDescription(of: panel)
        described.name = panel.name + Self.nameSuffix
        guard let dev = EvdevDescription.libevdev(describing: described) else {
            throw SystemError(call: "libevdev (the one-slot clone's description)", subject: panelNode, errno: EINVAL)
        }
        defer { libevdev_free(dev) }
        let made = Self.create(from: dev, phys: Self.physPrefix + panelNode)
        try self.init(made, slots: 1, marksPalms: marksPalms, singleTouch: SingleTouchSlot(panel: panel), hold: hold)
    }

    /// A uinput device made from `dev` with `phys` (which libevdev does not pass on: the kernel's
    /// `UI_SET_PHYS` on our own descriptor first, so udev rules and a restarted daemon can tell a clone's
    /// panel).
    private static func create(from dev: OpaquePointer, phys: String) -> Result<OpaquePointer, SystemError> {
        let subject = "/dev/uinput"
        let fd: Int32
        // Written only: the clone plays no force feedback, so nothing comes back to read.
        do { fd = try syscall("open", subject) { Glibc.open("/dev/uinput", O_WRONLY | O_CLOEXEC) } } catch {
            return .failure(error)
        }
        var created: OpaquePointer?
        var call = "UI_SET_PHYS"  // the step that failed, for the error
        do throws(SystemError) {
            // Tried again together on EINTR: a create that fails, an interrupted one too, destroys what was
            // set up on the descriptor, its phys with it.
            _ = try libevdevCall(call, subject) {
                call = "UI_SET_PHYS"
                if pressured_uinput_set_phys(fd, phys) < 0 { return -Glibc.errno }
                call = "libevdev_uinput_create_from_device"
                return libevdev_uinput_create_from_device(dev, fd, &created)
            }
            if let created { return .success(created) }
            throw SystemError(call: call, subject: subject, errno: EIO)
        } catch {
            _ = try? syscall("close", subject) { Glibc.close(fd) }
            return .failure(SystemError(call: call, subject: subject, errno: error.errno))
        }
    }

    private convenience init(_ made: Result<OpaquePointer, SystemError>, slots: Int, marksPalms: Bool, singleTouch: SingleTouchSlot?, hold: Hold?) throws(SystemError) {
        let created = try made.get()
        self.init(uinput: created, descriptor: libevdev_uinput_get_fd(created),
                  node: libevdev_uinput_get_devnode(created).map { String(cString: $0) } ?? "(no node)",
                  slots: slots, marksPalms: marksPalms, singleTouch: singleTouch, hold: hold)
    }

    /// Takes back the clone systemd kept (`fd`, from its store) for the panel named `panelName` at
    /// `panelNode`, if the kernel says it is that panel's clone (its name and phys); otherwise throws
    /// `ESTALE`, and `fd` is left to the caller. The touches the previous daemon left down on it are
    /// cancelled at once (``endContacts(currentSlot:)``): the panel, grabbed again with no touch down, goes on
    /// from `panelSlot`.
    public convenience init(adopting fd: Int32, panelName: String, panelNode: String, panelSlot: Int32, slots: Int,
                            singleTouch: DeviceDescription?, marksPalms: Bool, hold: Hold? = nil) throws(SystemError) {
        let want = (name: panelName + Self.nameSuffix, phys: Self.physPrefix + panelNode)
        let identity = UinputIdentity(descriptor: fd)
        guard let identity, identity.name == want.name, identity.phys == want.phys else {
            let found = identity.map { "\"\($0.name)\" at \"\($0.phys)\"" } ?? "no device the kernel names"
            throw SystemError(call: "filter mode (the clone systemd kept is \(found), not this panel's)",
                              subject: panelNode, errno: ESTALE)
        }
        self.init(uinput: nil, descriptor: fd, node: identity.node, slots: slots, marksPalms: marksPalms,
                  singleTouch: singleTouch.map(SingleTouchSlot.init(panel:)), hold: hold)
        endContacts(currentSlot: panelSlot)
    }

    private init(uinput: OpaquePointer?, descriptor: Int32, node: String, slots: Int, marksPalms: Bool,
                 singleTouch: SingleTouchSlot?, hold: Hold?) {
        self.uinput = uinput
        self.descriptor = descriptor
        adopted = uinput == nil
        self.node = node
        self.marksPalms = marksPalms
        rewriter = CloneRewriter(slots: slots, singleTouch: singleTouch, mode: hold == nil ? .cancel : .hold,
                                 buttons: hold?.buttons ?? [])
        frame.reserveCapacity(64)
        out.reserveCapacity(64)
    }

    /// Hold mode's clone (``CloneRewriter/Mode/hold``): the touch and finger-count buttons it has, which it
    /// sets itself from the contacts it shows.
    public struct Hold: Sendable {
        public var buttons: [UInt16]

        /// The count buttons of a clone described by `clone`.
        public init(clone: DeviceDescription) {
            buttons = CloneRewriter.countButtons.filter { clone.has(type: EventType.key, code: $0) }
        }
    }

    /// Whether the clone holds touches back until they are decided (``Hold``), rather than cancelling them.
    public var holds: Bool { rewriter.mode == .hold }

    /// Whether the clone's one slot is made here from a single-touch panel, following what the tracker made
    /// of each frame (``write(_:cancelling:held:)``'s `held`).
    public var makesItsSlot: Bool { rewriter.makesItsSlot }

    deinit { close() }

    /// Destroys the clone (the panel went, or filter mode is off for it now): the kernel ends its open
    /// touches, and the device goes even while systemd's store still holds a copy of its descriptor.
    public func close() {
        guard open else { return }
        open = false
        if let u = uinput {
            libevdev_uinput_destroy(u)  // its UI_DEV_DESTROY; the descriptor it was given stays ours
            uinput = nil
            _ = try? syscall("close", node) { Glibc.close(descriptor) }
        } else {
            Self.destroy(descriptor: descriptor, subject: node)
        }
    }

    /// Destroys the device a clone's uinput descriptor made and closes the descriptor: a clone taken back
    /// (which has no libevdev handle: the kernel's `UI_DEV_DESTROY` is what libevdev would do), or one
    /// systemd kept that no panel claims. Failures are not reported: the descriptor goes either way.
    static func destroy(descriptor fd: Int32, subject: String) {
        _ = try? syscall("UI_DEV_DESTROY", subject) { pressured_uinput_destroy(fd) }
        _ = try? syscall("close", subject) { Glibc.close(fd) }
    }

    /// Cancels every touch down on the clone, in one frame (``CloneRewriter/endContacts(currentSlot:into:)``):
    /// for a clone taken back after a crash, and for the daemon's exit while systemd keeps the clone for the
    /// next run. `currentSlot`: the panel's.
    public func endContacts(currentSlot slot: Int32) {
        guard open else { return }
        frame.removeAll(keepingCapacity: true)
        rewriter.endContacts(currentSlot: slot, into: &frame)
        send(frame)
    }

    /// Writes `events` (a frame of the panel, up to and with its `SYN_REPORT`, or the start of one) to the
    /// clone in one `write(2)`, with the cancels of the slots in `cancelling` and, for a single-touch
    /// panel, its slot's events (`held`: whether the tracker has the panel held after the frame), as
    /// ``CloneRewriter/rewrite(_:cancelling:held:holds:into:)`` makes them; in hold mode `holds` says which
    /// touches are held.
    func write(_ events: ArraySlice<InputEvent>, cancelling: [Int], held: Bool = false, holds: CloneHolds = .none) {
        guard open else { return }
        frame.removeAll(keepingCapacity: true)
        rewriter.rewrite(events, cancelling: cancelling, held: held, holds: holds, into: &frame)
        send(frame)
    }

    /// Hold mode, on the daemon's timer: the held touches the hub let go are written
    /// (``CloneRewriter/settle(cancelling:holds:into:)``).
    func settle(cancelling: [Int], holds: CloneHolds) {
        guard open, rewriter.held.contains(where: \.isHolding) else { return }
        frame.removeAll(keepingCapacity: true)
        rewriter.settle(cancelling: cancelling, holds: holds, into: &frame)
        send(frame)
    }

    /// After `SYN_DROPPED` and libevdev's resync: the panel's whole state, from `dev`, restated on the
    /// clone (``CloneRewriter/restate(_:cancelling:held:)``), a write a frame.
    func restate(from dev: OpaquePointer, cancelling: [Int], held: Bool, holds: CloneHolds) {
        guard open else { return }
        let panel = Self.snapshot(of: dev, slots: rewriter.makesItsSlot ? 0 : rewriter.slots.count)
        for restated in rewriter.restate(panel, cancelling: cancelling, held: held, holds: holds) { send(restated) }
    }

    /// What libevdev holds of the panel after a resync: its first `slots` slots' multi-touch values, its
    /// axes below them and its touch and tool buttons, each the panel has.
    private static func snapshot(of dev: OpaquePointer, slots: Int) -> PanelSnapshot {
        let abs = UInt32(EV_ABS), key = UInt32(EV_KEY)
        let time = Timestamp(microseconds: 0)
        func event(_ type: UInt16, _ code: UInt16, _ value: Int32) -> InputEvent {
            InputEvent(time: time, type: type, code: code, value: value)
        }
        let mtCodes = (AbsCode.mtSlot + 1...UInt16(ABS_MT_TOOL_Y)).filter {
            $0 != AbsCode.mtToolType && libevdev_has_event_code(dev, abs, UInt32($0)) != 0
        }
        let count = max(0, min(Int(libevdev_get_num_slots(dev)), slots))
        let panelSlots = (0..<count).map { s in
            PanelSnapshot.Slot(
                trackingID: libevdev_get_slot_value(dev, UInt32(s), UInt32(AbsCode.mtTrackingID)),
                values: mtCodes.map { event(EventType.abs, $0, libevdev_get_slot_value(dev, UInt32(s), UInt32($0))) })
        }
        var others: [InputEvent] = []
        for code in 0..<AbsCode.mtSlot where libevdev_has_event_code(dev, abs, UInt32(code)) != 0 {
            others.append(event(EventType.abs, code, libevdev_get_event_value(dev, abs, UInt32(code))))
        }
        for code in KeyCode.btnDigi...KeyCode.btnToolQuadTap where libevdev_has_event_code(dev, key, UInt32(code)) != 0 {
            others.append(event(EventType.key, code, libevdev_get_event_value(dev, key, UInt32(code))))
        }
        return PanelSnapshot(slots: panelSlots, others: others, currentSlot: libevdev_get_current_slot(dev))
    }

    /// One write of the frame: the kernel stamps the clone's events as they arrive. A write that fails or
    /// takes less than the frame is logged, once.
    private func send(_ frame: [InputEvent]) {
        guard !frame.isEmpty else { return }
        out.removeAll(keepingCapacity: true)
        for e in frame { out.append(input_event(time: timeval(), type: e.type, code: e.code, value: e.value)) }
        let meant = out.count * MemoryLayout<input_event>.stride
        let failure: WriteFailure
        do {
            let written = try syscall("write", node) { out.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) } }
            guard written != meant else { return }
            failure = .short(written: written, meant: meant)
        } catch {
            failure = .failed(error)
        }
        if !warned {
            warned = true
            Log.warning("\(node): writing the clone: \(failure)")
        }
    }

    /// A frame the clone did not take whole.
    enum WriteFailure: Error, CustomStringConvertible {
        /// `write(2)` failed.
        case failed(SystemError)
        /// `write(2)` took `written` bytes of the `meant` (events past them lost).
        case short(written: Int, meant: Int)

        var description: String {
            switch self {
            case .failed(let error): return String(cString: strerror(error.errno))
            case .short(let written, let meant): return "wrote \(written) of \(meant) bytes, the rest of the frame lost"
            }
        }
    }
}
