/// Turns a device's evdev events into contact changes, one frame (up to `SYN_REPORT`) at a time.
///
/// It speaks multi-touch protocol B (slots, tracking ids), protocol A (its frames assembled and paired
/// by ``ProtocolAFrame``) and single-touch panels, ignoring the kernel's single-touch
/// emulation on multi-touch devices. Each slot's contact is one state machine, ``SlotContact``. What
/// counts as a touch, a hover or a palm, and what `SYN_DROPPED` does, are `docs/gestures.md`'s
/// ("Contacts"); a palm is latched until its contact ends, as libinput does, and counted in
/// ``diagnostics``; after a drop a daemon with libevdev resyncs instead (``resync(slots:)``).
public struct ContactTracker: Sendable {
    public let device: TouchDevice
    public private(set) var settings: TrackerSettings
    /// Changes of the last completed frame; cleared at the start of the next one.
    public internal(set) var changes: [ContactChange] = []
    public internal(set) var diagnostics = TrackerDiagnostics()

    var slots: [SlotState]
    var dirtyList: [Int] = []
    var currentSlot = 0
    var dropping = false
    /// Protocol A: the frame being assembled.
    var protocolA: ProtocolAFrame
    /// Single-touch: `BTN_TOUCH` as last reported.
    var touchButton = false
    /// Single-touch panels without `BTN_TOUCH`: when pressure is a touch.
    private(set) var hysteresis: TouchHysteresis
    /// A contact whose touch major exceeds this many units is a palm; nil: no size-based palms.
    private(set) var palmMajorLimit: Int32?
    /// The device declares both pressure and touch major, so a contact's ``SizeEcho`` can be known; without
    /// touch major it stays unseen, and such a device is never taken for one whose pressure is its size.
    let watchesSize: Bool

    let xCode: UInt16
    let yCode: UInt16
    let pressureCode: UInt16
    let pressureAxis: AbsInfo

    public init(device: TouchDevice, settings: TrackerSettings = TrackerSettings()) {
        self.device = device
        self.settings = settings
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
        hysteresis = TouchHysteresis.resolve(settings, axis: pressureAxis)
        palmMajorLimit = Self.palmMajorLimit(device: device, palmSize: settings.palmSize)
        watchesSize = device.pressureAxis != nil && device.touchMajorAxis != nil
        slots = Array(repeating: SlotState(), count: count)
        protocolA = ProtocolAFrame(capacity: count)
        changes.reserveCapacity(2 * count + 2)
        dirtyList.reserveCapacity(count)
    }

    /// New settings (a reload): they judge every frame from the next one on, live contacts included; a
    /// contact already ignored as a palm stays ignored until it ends.
    public mutating func apply(settings new: TrackerSettings) {
        settings = new
        hysteresis = TouchHysteresis.resolve(new, axis: pressureAxis)
        palmMajorLimit = Self.palmMajorLimit(device: device, palmSize: new.palmSize)
    }

    /// The largest touch major that is not a palm (libinput's comparison: a palm is strictly larger).
    static func palmMajorLimit(device: TouchDevice, palmSize: PalmSize) -> Int32? {
        guard case .millimetres(let mm) = palmSize, mm > 0, let perMM = device.contactSizeUnitsPerMillimetre else {
            return nil
        }
        let limit = (mm * perMM).rounded(.down)
        return limit >= Double(Int32.max) ? nil : Int32(limit)
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
            protocolA.handle(code: code, value: value, device: device)
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
                if old >= 0 { markLifted(i) }
                slots[i].trackingID = -1
            } else if old >= 0 && value != old && slots[i].contact != .ignored(.dropped) {
                // A new id while the slot still holds one (no -1 in between): libevdev discards such an
                // event ("double tracking ID") and the daemon reads through libevdev, so the contact
                // carries on here too; replay and daemon must agree.
                diagnostics.trackingIDsReplacedWithoutLift += 1
            } else if value != old {
                // After a drop the -1 may be what was lost: a new id is a new contact.
                if old >= 0 { markLifted(i) }
                slots[i].trackingID = value
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
            slots[i].pressureSent = true
            markDirty(i)
        case AbsCode.mtToolType where device.hasToolType:
            slots[i].toolType = value
            markDirty(i)
        case AbsCode.mtDistance where device.hasHoverDistance:
            slots[i].distance = value
            markDirty(i)
        case AbsCode.mtTouchMajor where device.touchMajorAxis != nil:
            slots[i].touchMajor = value
            slots[i].majorSent = true
            markDirty(i)
        default:
            break
        }
    }

    /// The contact in slot `i` ends here, as it is now: what this frame sent so far was its own, what
    /// follows in the frame is the next contact's.
    private mutating func markLifted(_ i: Int) {
        slots[i].lifted = true
        (slots[i].liftX, slots[i].liftY, slots[i].liftPressure) = (slots[i].x, slots[i].y, slots[i].pressure)
        slots[i].liftSizeEcho = echo(after: i)
        (slots[i].pressureSent, slots[i].majorSent) = (false, false)
    }

    @inline(__always)
    private mutating func markDirty(_ i: Int) {
        if !slots[i].dirty {
            slots[i].dirty = true
            dirtyList.append(i)
        }
    }

    @inline(__always)
    mutating func clamp(_ v: Int32, _ axis: AbsInfo) -> Int32 {
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
            for i in dirtyList { finishSlotFrame(i) }
            dirtyList.removeAll(keepingCapacity: true)
        case .anonymous:
            closePoint()
            matchFramePoints()
        case .singleTouch:
            finishSingleTouchFrame()
        }
    }

    /// Reports what one slot's frame amounted to.
    private mutating func finishSlotFrame(_ i: Int) {
        slots[i].dirty = false
        let lifted = slots[i].lifted
        slots[i].lifted = false
        finishFrame(ofSlot: i, lifted: lifted, reading: slots[i].trackingID < 0 ? .absent : reading(of: slots[i]))
    }

    // MARK: Protocol A

    /// `SYN_MT_REPORT`: the contact being assembled joins the frame, or is counted as beyond capacity.
    mutating func closePoint() {
        if !protocolA.closeContact(capacity: slots.count) { diagnostics.contactsBeyondCapacity += 1 }
    }

    /// `SYN_REPORT`: each of the frame's contacts that continues an occupied place moves it; places no
    /// contact continues end, then the contacts left over begin in free places. Hovering contacts and
    /// palms take part in the pairing, so that a palm stays ignored, and a hovering contact stays one
    /// contact, for as long as it is listed; each goes through ``SlotContact`` like a protocol B slot.
    mutating func matchFramePoints() {
        protocolA.pair(with: slots, device: device)
        var matched = UInt64(0)  // bit per slot
        for (slot, point) in protocolA.pairs {
            matched |= 1 << UInt64(slot)
            let p = protocolA.points[point]
            var s = slots[slot]
            s.changed = p.x != s.x || p.y != s.y || p.pressure != s.pressure
            (s.x, s.y, s.pressure) = (p.x, p.y, p.pressure)
            (s.toolType, s.distance, s.touchMajor) = (p.toolType, p.distance, p.touchMajor)
            (s.pressureSent, s.majorSent) = (p.pressureSent, p.majorSent)
            slots[slot] = s
            finishFrame(ofSlot: slot, lifted: false, reading: reading(of: s))
        }
        for i in slots.indices where slots[i].contact.isOccupied && matched & (1 << UInt64(i)) == 0 {
            finishFrame(ofSlot: i, lifted: false, reading: .absent)
        }
        for (j, p) in protocolA.points.enumerated() where protocolA.claimed & (1 << UInt64(j)) == 0 {
            guard let free = slots.firstIndex(where: { !$0.contact.isOccupied }) else { break }
            slots[free] = p
            finishFrame(ofSlot: free, lifted: false, reading: reading(of: p))
        }
        protocolA.endFrame()
    }

    // MARK: Single touch

    // Single-touch panels (`ABS_X/Y`, optional `ABS_PRESSURE`, optional `BTN_TOUCH`): one contact, in slot 0.
    //
    // With `BTN_TOUCH` the button says when the panel is touched; hovering (`BTN_TOOL_*` down, `BTN_TOUCH`
    // up, and `ABS_DISTANCE`, which the kernel's event codes document is sent only while `BTN_TOUCH` is 0)
    // is therefore never a touch. Without it, pressure says, through ``TouchHysteresis``: a touch begins at
    // the down threshold and ends below the up threshold, and after a drop the contact is ignored until
    // pressure falls below the up threshold. These panels have no tool type or contact size, so no palms.
    mutating func handleSingle(code: UInt16, value: Int32) {
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

    /// Whether the panel is touched now, given what slot `s` holds.
    @inline(__always)
    func singleTouchReading(_ s: SlotState) -> Bool {
        device.hasTouchButton ? touchButton : hysteresis.isTouching(s.pressure, held: s.contact.isOccupied)
    }

    mutating func finishSingleTouchFrame() {
        finishFrame(ofSlot: 0, lifted: false, reading: singleTouchReading(slots[0]) ? .touching : .absent)
    }

    // MARK: Every protocol

    /// What a contact that is there amounts to: a palm, hovering, or a touch.
    @inline(__always)
    func reading(of s: SlotState) -> SlotContact.Reading {
        if device.hasToolType && s.toolType == MTTool.palm { return .palm(bySize: false) }
        if let limit = palmMajorLimit, s.touchMajor > limit { return .palm(bySize: true) }
        if device.hasHoverDistance && s.distance > 0 { return .hovering }
        return .touching
    }

    /// The size echo of the contact in slot `i` once this frame's pressure and touch major are taken in.
    /// Reads the slot's fields in place: a `SlotState` passed by value was copied whole (a `memcpy` of
    /// the slot for every contact of every frame).
    @inline(__always)
    func echo(after i: Int) -> SizeEcho {
        guard watchesSize else { return .unseen }
        return slots[i].sizeEcho.seeing(
            pressureSent: slots[i].pressureSent, majorSent: slots[i].majorSent, pressure: slots[i].pressure,
            major: slots[i].touchMajor)
    }

    /// Moves slot `i` on by one frame (``SlotContact``) and reports the result: `lifted` if its contact
    /// ended inside the frame, then what is there at its end. An end is reported as `endAs` (a resync
    /// reports contacts that ended unseen as cancelled). A contact that begins starts its size echo afresh.
    mutating func finishFrame(
        ofSlot i: Int, lifted: Bool, reading: SlotContact.Reading, endAs: ContactChange.Phase = .ended
    ) {
        if lifted {
            let (next, action) = slots[i].contact.lifted()
            slots[i].contact = next
            if action == .end {
                changes.append(ContactChange(
                    endAs, index: i, x: slots[i].liftX, y: slots[i].liftY, pressure: slots[i].liftPressure,
                    sizeEcho: slots[i].liftSizeEcho))
            }
        }
        let (next, action) = slots[i].contact.next(reading)
        slots[i].contact = next
        if action == .begin { slots[i].sizeEcho = .unseen }
        slots[i].sizeEcho = echo(after: i)
        perform(action, i, endAs: endAs)
        slots[i].changed = false
        (slots[i].pressureSent, slots[i].majorSent) = (false, false)
    }

    @inline(__always)
    private mutating func perform(_ action: SlotContact.Action, _ i: Int, endAs: ContactChange.Phase) {
        switch action {
        case .nothing:
            return
        case .begin:
            report(.began, i)
        case .carryOn:
            if slots[i].changed { report(.moved, i) }
        case .end:
            report(endAs, i)
        case .cancelAsPalm(let bySize):
            countPalm(bySize: bySize)
            report(.cancelledAsPalm, i)
        case .ignorePalm(let bySize):
            countPalm(bySize: bySize)
        }
    }

    @inline(__always)
    private mutating func report(_ phase: ContactChange.Phase, _ i: Int) {
        changes.append(ContactChange(
            phase, index: i, x: slots[i].x, y: slots[i].y, pressure: slots[i].pressure, sizeEcho: slots[i].sizeEcho))
    }

    private mutating func countPalm(bySize: Bool) {
        if bySize { diagnostics.palmsBySize += 1 } else { diagnostics.palmsByToolType += 1 }
    }
}
