/// Turns a device's evdev events into contact changes, one frame (up to `SYN_REPORT`) at a time.
///
/// It speaks multi-touch protocol B (slots, tracking ids), protocol A (`SYN_MT_REPORT`) and single-touch
/// panels (`ABS_X/Y`, `ABS_PRESSURE`, `BTN_TOUCH`). The kernel's single-touch emulation on multi-touch
/// devices is ignored. Pressure 0 on a live contact is still a touch: only the tracking id (or
/// `BTN_TOUCH`) ends one. After `SYN_DROPPED` everything up to the next `SYN_REPORT` is discarded and
/// every live contact is cancelled, since its state is unknown; a suppressed slot comes back when its
/// tracking id changes (a daemon with libevdev resyncs instead: see ``resync(slots:at:)``).
public struct ContactTracker: Sendable {
    public let device: TouchDevice
    /// Changes of the last completed frame; cleared at the start of the next one.
    public internal(set) var changes: [ContactChange] = []
    public internal(set) var diagnostics = TrackerDiagnostics()

    var slots: [SlotState]
    var dirtyList: [Int] = []
    var currentSlot = 0
    var dropping = false
    /// Protocol A: the contact being assembled until `SYN_MT_REPORT`, and the frame's contacts.
    var pendingPoint = SlotState()
    var pendingPointHasData = false
    var framePoints: [SlotState] = []
    /// Single-touch: `BTN_TOUCH` as last reported.
    var touchButton = false

    private let xCode: UInt16
    private let yCode: UInt16
    private let pressureCode: UInt16
    private let pressureAxis: AbsInfo

    public init(device: TouchDevice) {
        self.device = device
        let count: Int
        switch device.contactProtocol {
        case .slotted(let n):
            count = n
            (xCode, yCode, pressureCode) = (AbsCode.mtPositionX, AbsCode.mtPositionY, AbsCode.mtPressure)
        case .anonymous:
            count = TouchDevice.maximumSlots
            (xCode, yCode, pressureCode) = (AbsCode.mtPositionX, AbsCode.mtPositionY, AbsCode.mtPressure)
        case .singleTouch:
            count = 1
            (xCode, yCode, pressureCode) = (AbsCode.x, AbsCode.y, AbsCode.pressure)
        }
        pressureAxis = device.pressureAxis ?? AbsInfo(minimum: 0, maximum: 0)
        slots = Array(repeating: SlotState(), count: count)
        changes.reserveCapacity(2 * count + 2)
        dirtyList.reserveCapacity(count)
        framePoints.reserveCapacity(count)
    }

    /// Feeds one event. Returns true when it completed a frame: ``changes`` then holds its changes.

    public mutating func handle(_ e: InputEvent) -> Bool {
        if e.type == EventType.syn {
            return handleSyn(e.code)
        }
        if dropping { return false }
        if e.type == EventType.abs {
            handleAbs(code: e.code, value: e.value)
        } else if e.type == EventType.key, e.code == KeyCode.btnTouch {
            touchButton = e.value != 0
        }
        return false
    }


    mutating func handleSyn(_ code: UInt16) -> Bool {
        switch code {
        case SynCode.report:
            if dropping {
                dropping = false
                cancelAll()
                return true
            }
            endFrame()
            return true
        case SynCode.mtReport:
            if !dropping, case .anonymous = device.contactProtocol { closePoint() }
            return false
        case SynCode.dropped:
            dropping = true
            diagnostics.droppedReports += 1
            return false
        default:
            return false
        }
    }


    mutating func handleAbs(code: UInt16, value: Int32) {
        switch device.contactProtocol {
        case .slotted:
            handleSlotted(code: code, value: value)
        case .anonymous:
            handleAnonymous(code: code, value: value)
        case .singleTouch:
            handleSingle(code: code, value: value)
        }
    }

    // MARK: Protocol B

    private mutating func handleSlotted(code: UInt16, value: Int32) {
        if code == AbsCode.mtSlot {
            currentSlot = value >= 0 && Int(value) < slots.count ? Int(value) : -1
            return
        }
        let i = currentSlot
        guard i >= 0 else {
            if code == AbsCode.mtTrackingID || code == xCode || code == yCode || code == pressureCode {
                diagnostics.eventsForUnknownSlots += 1
            }
            return
        }
        switch code {
        case AbsCode.mtTrackingID:
            let old = slots[i].trackingID
            if value < 0 {
                slots[i].trackingID = -1
                slots[i].suppressed = false
            } else if old >= 0 && value != old && !slots[i].suppressed {
                // A new id while the slot still holds one (no -1 in between): libevdev discards such an
                // event ("double tracking ID") and the daemon reads through libevdev, so the contact
                // carries on here too; replay and daemon must agree.
                diagnostics.trackingIDsReplacedWithoutLift += 1
            } else if value != old {
                slots[i].trackingID = value
                slots[i].suppressed = false
            }
            markDirty(i)
        case xCode:
            slots[i].x = clamp(value, device.xAxis)
            slots[i].changed = true
            markDirty(i)
        case yCode:
            slots[i].y = clamp(value, device.yAxis)
            slots[i].changed = true
            markDirty(i)
        case pressureCode:
            slots[i].pressure = clamp(value, pressureAxis)
            slots[i].changed = true
            markDirty(i)
        default:
            break
        }
    }

    @inline(__always)
    private mutating func markDirty(_ i: Int) {
        if !slots[i].dirty {
            slots[i].dirty = true
            dirtyList.append(i)
        }
    }

    @inline(__always)
    private mutating func clamp(_ v: Int32, _ axis: AbsInfo) -> Int32 {
        if v < axis.minimum || v > axis.maximum {
            diagnostics.valuesClamped += 1
            return axis.clamp(v)
        }
        return v
    }

    private mutating func endFrame() {
        changes.removeAll(keepingCapacity: true)
        switch device.contactProtocol {
        case .slotted:
            for i in dirtyList { settleSlot(i) }
            dirtyList.removeAll(keepingCapacity: true)
        case .anonymous:
            closePoint()
            matchFramePoints()
        case .singleTouch:
            settleSingle()
        }
    }

    /// Reports what one slot's frame amounted to.
    private mutating func settleSlot(_ i: Int) {
        var s = slots[i]
        s.dirty = false
        if s.live && s.trackingID < 0 {
            changes.append(ContactChange(.ended, index: i, x: s.x, y: s.y, pressure: s.pressure))
            s.live = false
        }
        if !s.live && s.trackingID >= 0 && !s.suppressed {
            s.live = true
            changes.append(ContactChange(.began, index: i, x: s.x, y: s.y, pressure: s.pressure))
        } else if s.live && s.changed {
            changes.append(ContactChange(.moved, index: i, x: s.x, y: s.y, pressure: s.pressure))
        }
        s.changed = false
        slots[i] = s
    }

    /// After `SYN_DROPPED`: every live contact is cancelled and its slot suppressed.
    mutating func cancelAll() {
        changes.removeAll(keepingCapacity: true)
        for i in slots.indices {
            if slots[i].live {
                let s = slots[i]
                changes.append(ContactChange(.cancelled, index: i, x: s.x, y: s.y, pressure: s.pressure))
                slots[i].live = false
                slots[i].suppressed = true
            }
            slots[i].dirty = false
            slots[i].changed = false
        }
        dirtyList.removeAll(keepingCapacity: true)
        framePoints.removeAll(keepingCapacity: true)
        pendingPointHasData = false
    }

    /// Ends every live contact as cancelled, e.g. when the device goes away or a replay ends.
    /// ``changes`` then holds the cancellations.
    public mutating func cancelLiveContacts() {
        cancelAll()
        for i in slots.indices { slots[i] = SlotState() }
    }

    /// A daemon that resynced with libevdev after `SYN_DROPPED` hands over the true tracking id of each slot
    /// (`-1` for empty). Contacts that vanished or changed id are cancelled; contacts that are still down
    /// carry on; new ones begin. ``changes`` then holds the result.
    public mutating func resync(slots truth: [(trackingID: Int32, x: Int32, y: Int32, pressure: Int32)]) {
        changes.removeAll(keepingCapacity: true)
        dropping = false
        for i in slots.indices {
            let t = i < truth.count ? truth[i] : (trackingID: -1, x: 0, y: 0, pressure: 0)
            var s = slots[i]
            if s.live && s.trackingID != t.trackingID {
                changes.append(ContactChange(.cancelled, index: i, x: s.x, y: s.y, pressure: s.pressure))
                s.live = false
            }
            s.trackingID = t.trackingID
            s.x = clamp(t.x, device.xAxis)
            s.y = clamp(t.y, device.yAxis)
            s.pressure = clamp(t.pressure, pressureAxis)
            s.suppressed = false
            s.dirty = false
            s.changed = false
            if !s.live && s.trackingID >= 0 {
                s.live = true
                changes.append(ContactChange(.began, index: i, x: s.x, y: s.y, pressure: s.pressure))
            } else if s.live {
                changes.append(ContactChange(.moved, index: i, x: s.x, y: s.y, pressure: s.pressure))
            }
            slots[i] = s
        }
        dirtyList.removeAll(keepingCapacity: true)
    }

    // MARK: Single touch

    private mutating func handleSingle(code: UInt16, value: Int32) {
        switch code {
        case xCode:
            slots[0].x = clamp(value, device.xAxis)
            slots[0].changed = true
        case yCode:
            slots[0].y = clamp(value, device.yAxis)
            slots[0].changed = true
        case pressureCode where device.pressureAxis != nil:
            slots[0].pressure = clamp(value, pressureAxis)
            slots[0].changed = true
        default:
            break
        }
    }

    private mutating func settleSingle() {
        var s = slots[0]
        let touching = device.hasTouchButton ? touchButton : s.pressure > pressureAxis.minimum
        if s.suppressed {
            // After a drop, wait for a lift before trusting the panel again.
            if !touching { s.suppressed = false }
        } else if touching && !s.live {
            s.live = true
            changes.append(ContactChange(.began, index: 0, x: s.x, y: s.y, pressure: s.pressure))
        } else if !touching && s.live {
            s.live = false
            changes.append(ContactChange(.ended, index: 0, x: s.x, y: s.y, pressure: s.pressure))
        } else if s.live && s.changed {
            changes.append(ContactChange(.moved, index: 0, x: s.x, y: s.y, pressure: s.pressure))
        }
        s.changed = false
        slots[0] = s
    }
}
