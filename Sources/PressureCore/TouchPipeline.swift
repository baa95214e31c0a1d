/// Everything one device's input goes through: contact tracking, force, and a ``PeekPopDetector`` per
/// contact. The daemon and `pressurectl replay` both drive exactly this, so they cannot disagree.
///
/// Feed events with ``handle(_:)``, and ``tick(_:)`` whenever ``nextDeadline`` is due (before any later
/// event); drain ``outputs`` with ``clearOutputs()``. Nothing here allocates once warmed up. What the
/// ``ForceModel`` learned applies only once no finger is down, so thresholds never move under a finger;
/// ``deviceChanged`` says apps should hear of it, until ``takeDeviceChange()``.
public struct TouchPipeline: Sendable {
    /// One live contact: its id and its gesture state.
    struct ActiveContact: Sendable {
        var id: UInt64
        var detector: PeekPopDetector
        var x: Int32
        var y: Int32
        var pressure: Int32
    }

    /// What the learner is told of a contact when it ends, kept beside ``ActiveContact`` (a parallel
    /// array, updated in place, so a frame does not copy it).
    struct ContactRecord: Sendable {
        var began = Timestamp(microseconds: 0)
        var originX: Int32 = 0
        var originY: Int32 = 0
        var peak: Int32 = 0
        var lowest: Int32 = 0
        var moved = false
        var popped = false
        var longPressed = false
    }

    /// A state change of a contact's detector, kept only when ``recordsTransitions`` is on (`--verbose`).
    public struct StateTransition: Hashable, Sendable {
        public var contact: UInt64
        public var from: String
        public var input: String
        public var to: String
        public var impossible: Bool
    }

    public let deviceID: Int
    public private(set) var tracker: ContactTracker
    public private(set) var settings: GestureSettings
    /// Where force comes from, and what was learned.
    public private(set) var force: ForceModel
    public private(set) var thresholds: GestureThresholds
    /// Where touches land on the screen; the device's own units unless configured (``setScreen(_:)``).
    public private(set) var geometry: ScreenGeometry
    /// Added to every mapped position: the axis minimums while the screen is the device's own units, so
    /// `screenX` is `x` there; zero on a configured screen, whose pixels start at 0.
    private var screenOrigin: (x: Double, y: Double)
    /// Also emit `touch` events (began/moved/ended/cancelled), not only gestures.
    public var reportsTouches: Bool
    public var recordsTransitions = false
    public private(set) var outputs: [PressureEvent] = []
    public private(set) var transitions: [StateTransition] = []
    /// The earliest pending long-press deadline of any contact.
    public private(set) var nextDeadline: Timestamp?
    /// The latest time this pipeline reported anything at: a frame's, or a long press's deadline. Outputs
    /// never go back before it (``applyChanges(at:)``), so a device's events go out in time order.
    public private(set) var latestTime: Timestamp?
    /// Apps should hear the device's force capability or `maximumPossibleForce` anew (``ForceModel``).
    public private(set) var deviceChanged = false
    /// Fingers down now (contacts that began and have not ended).
    public private(set) var liveContactCount = 0

    var contacts: [ActiveContact?]
    var records: [ContactRecord]
    var nextContactID: UInt64 = 1
    private let xAxis: AbsInfo
    private let yAxis: AbsInfo
    private var maximumForce: Double
    /// The calibration in force, unpacked for the per-frame force computation.
    private var forceScale: Double
    private var forceFloor: Int32 = 0
    private var forceTop: Int32 = 0

    /// A pipeline whose force comes from `force` (``ForceModel/Setup``).
    public init(
        device: TouchDevice, deviceID: Int, force setup: ForceModel.Setup, settings: GestureSettings,
        reportsTouches: Bool = false, tracking: TrackerSettings = TrackerSettings()
    ) {
        self.deviceID = deviceID
        tracker = ContactTracker(device: device, settings: tracking)
        contacts = Array(repeating: nil, count: tracker.slots.count)
        records = Array(repeating: ContactRecord(), count: tracker.slots.count)
        self.reportsTouches = reportsTouches
        self.settings = settings
        force = ForceModel(device.hasPressure ? setup : .none, settings: settings)
        thresholds = GestureThresholds(device: device, force: force.outcome, settings: settings)
        geometry = ScreenGeometry.deviceUnits(device)
        screenOrigin = (Double(device.xAxis.minimum), Double(device.yAxis.minimum))
        xAxis = device.xAxis
        yAxis = device.yAxis
        (maximumForce, forceScale) = (0, 0)
        outputs.reserveCapacity(4 * contacts.count + 4)
        updateForce()
    }

    /// A pipeline whose calibration is used as it is (nothing learned), nil for none: tests and tools.
    public init(
        device: TouchDevice, deviceID: Int, calibration: ForceCalibration?, settings: GestureSettings,
        reportsTouches: Bool = false, tracking: TrackerSettings = TrackerSettings()
    ) {
        self.init(
            device: device, deviceID: deviceID, force: calibration.map { .configured($0) } ?? .none,
            settings: settings, reportsTouches: reportsTouches, tracking: tracking)
    }

    public var device: TouchDevice { tracker.device }

    /// The calibration in force (nil where force is unavailable).
    public var calibration: ForceCalibration? { force.calibration }

    /// Force capability as apps see it: hardware pressure, the user's switch, and what was learned.
    public var forceCapability: TouchDevice.ForceCapability {
        thresholds.forceGesturesEnabled ? .available : .unavailable
    }

    /// Why force is unavailable, where it is.
    public var forceUnavailableReason: ForceUnavailableReason? { force.unavailableReason }

    /// `maximumPossibleForce` on this device now (0 where force is unavailable).
    public var maximumPossibleForce: Double { maximumForce }

    /// New settings or force setup (SIGHUP, a control request). Live contacts keep their state; the new
    /// thresholds apply from the next frame.
    public mutating func apply(settings: GestureSettings, force setup: ForceModel.Setup, tracking: TrackerSettings? = nil) {
        self.settings = settings
        force.apply(device.hasPressure ? setup : .none, settings: settings)
        if let tracking { tracker.apply(settings: tracking) }
        rethreshold()
    }

    /// New settings, with a calibration used as it is (tests and tools).
    public mutating func apply(settings: GestureSettings, calibration: ForceCalibration?) {
        apply(settings: settings, force: calibration.map { .configured($0) } ?? .none)
    }

    /// Forgets what the device learned; returns whether it was learning at all.
    public mutating func resetLearning() -> Bool {
        guard force.resetLearning() else { return false }
        rethreshold()
        return true
    }

    /// Takes the pending ``deviceChanged`` flag.
    public mutating func takeDeviceChange() -> Bool {
        defer { deviceChanged = false }
        return deviceChanged
    }

    /// The owner told apps about the device itself (a reload): no announcement is owed.
    public mutating func markAnnounced() {
        force.markAnnounced()
        deviceChanged = false
    }

    private mutating func rethreshold() {
        thresholds = GestureThresholds(device: device, force: force.outcome, settings: settings)
        updateForce()
    }

    private mutating func updateForce() {
        if thresholds.forceGesturesEnabled, let cal = force.calibration {
            maximumForce = cal.maximumPossibleForce
            forceScale = 1.0 / Double(cal.average - cal.floor)
            (forceFloor, forceTop) = (cal.floor, cal.top)
        } else {
            maximumForce = 0
            forceScale = 0
        }
    }

    /// Where touches land from now on (the configuration's screen for the device).
    public mutating func setScreen(_ screen: ResolvedScreen) {
        geometry = screen.geometry
        screenOrigin = screen.inDeviceUnits ? (Double(xAxis.minimum), Double(yAxis.minimum)) : (0, 0)
    }

    public mutating func clearOutputs() {
        outputs.removeAllKeepingCapacity()
        transitions.removeAllKeepingCapacity()
    }

    /// Force of a raw pressure value on this device (0 where force is unavailable).
    @inline(__always)
    func force(raw: Int32) -> Double {
        guard forceScale > 0 else { return 0 }
        return Double(min(max(raw, forceFloor), forceTop) - forceFloor) * forceScale
    }

    /// Feeds one evdev event; a `SYN_REPORT` makes the frame's gestures and touches appear in ``outputs``.

    public mutating func handle(_ event: InputEvent) {
        if tracker.handle(event) {
            applyChanges(at: event.time)
        }
    }

    /// Feeds one event as a live device delivers it: every long press due at or before the event's time
    /// fires first (a still finger sends nothing, so the deadline may have passed unseen), then the event.
    /// The outputs of both stay in ``outputs`` in that order. Replay and daemon both feed through here.
    public mutating func feed(_ event: InputEvent) {
        if let due = nextDeadline, due <= event.time { tick(event.time) }
        handle(event)
    }

    /// Feeds `events` from `start` as ``feed(_:)`` does, up to the first that gives the owner news
    /// (outputs, transitions, a device change, a learned revision past `revision`) or ends a frame;
    /// returns the index after it. The per-event loop stays in this module, where it is inlined.
    public mutating func feed(
        _ events: ArraySlice<InputEvent>, from start: Int, stoppingAfterNewsBeyond revision: Int
    ) -> Int {
        var k = start
        while k < events.endIndex {
            let e = events[k]
            k += 1
            feed(e)
            if !outputs.isEmpty || !transitions.isEmpty || deviceChanged || force.learnedRevision != revision
                || (e.type == EventType.syn && e.code == SynCode.report) {
                break
            }
        }
        return k
    }

    /// The owner's timer: fires every long press due at or before `now`, in the order of their deadlines
    /// (not of the slots the contacts sit in), each at its deadline: when its hold completed.
    public mutating func tick(_ now: Timestamp) {
        while let due = nextDeadline, due <= now {
            // The contact whose deadline is `due` (the first such slot, for deadlines that tie).
            guard let i = contacts.firstIndex(where: { $0?.detector.deadline == due }), var c = contacts[i] else {
                recomputeDeadline()  // nobody waits for it any more (never expected): the next one, if any
                continue
            }
            let from = c.detector.stateName
            let t = c.detector.handle(.timeout(due), thresholds: thresholds)
            record(c, from: from, input: "timeout", t)
            let time = latestTime.map { max($0, due) } ?? due
            latestTime = time
            emit(t, contact: c, index: i, time: time)
            contacts[i] = c
            recomputeDeadline()
        }
    }

    /// Cancels every live contact (device gone, replay over): open peeks are dismissed.
    public mutating func cancelAll(at time: Timestamp) {
        tracker.cancelLiveContacts()
        applyChanges(at: time)
    }

    /// After a libevdev resync: the true slot state (see ``ContactTracker/resync(slots:at:)``). Long presses
    /// due by then fire first, as before any event.
    public mutating func resync(slots: [SlotTruth], at time: Timestamp) {
        tick(time)
        tracker.resync(slots: slots)
        applyChanges(at: time)
    }

    /// A frame's changes at `time` (never before ``latestTime``: a frame stamped before a long press the
    /// timer fired, read only after it, is taken as coming at that press, so times never go back).
    mutating func applyChanges(at frameTime: Timestamp) {
        let time = latestTime.map { max($0, frameTime) } ?? frameTime
        latestTime = time
        var deadlinesChanged = false
        for change in tracker.changes {
            let i = change.index
            switch change.phase {
            case .began:
                let c = ActiveContact(
                    id: nextContactID,
                    detector: PeekPopDetector(downAt: time, x: change.x, y: change.y, thresholds: thresholds),
                    x: change.x, y: change.y, pressure: change.pressure)
                records[i] = ContactRecord(
                    began: time, originX: change.x, originY: change.y, peak: change.pressure, lowest: change.pressure)
                nextContactID &+= 1
                liveContactCount += 1
                contacts[i] = c
                touch(.began, c, time)
                nextDeadline = .earliest(nextDeadline, c.detector.deadline)
                frame(i, change, time, &deadlinesChanged)
            case .moved:
                frame(i, change, time, &deadlinesChanged)
            case .ended, .cancelled, .cancelledAsPalm:
                guard var c = contacts[i] else { continue }
                let from = c.detector.stateName
                let lifted = change.phase == .ended
                let t = c.detector.handle(lifted ? .lift(time) : .cancel(time), thresholds: thresholds)
                record(c, from: from, input: lifted ? "lift" : "cancel", t)
                emit(t, contact: c, index: i, time: time)
                touch(lifted ? .ended : .cancelled, c, time)
                contacts[i] = nil
                liveContactCount -= 1
                let r = records[i]
                force.contactEnded(ContactSummary(
                    ending: lifted ? .lifted : change.phase == .cancelledAsPalm ? .palm : .cancelled,
                    peak: max(r.peak, change.pressure), lowest: min(r.lowest, change.pressure), began: r.began,
                    ended: time, movedBeyondSlop: r.moved, popped: r.popped, longPressed: r.longPressed,
                    sizeEcho: change.sizeEcho))
                if t.timer != .none { deadlinesChanged = true }
            }
        }
        if deadlinesChanged { recomputeDeadline() }
        if liveContactCount == 0 { applyLearnedForce(at: time) }
    }

    /// Between contacts: what was learned applies, and apps hear of it when it matters.
    private mutating func applyLearnedForce(at time: Timestamp) {
        if force.applyLearned() { rethreshold() }
        if force.announcementDue(at: time) { deviceChanged = true }
    }

    @inline(__always)
    private mutating func frame(_ i: Int, _ change: ContactChange, _ time: Timestamp, _ deadlinesChanged: inout Bool) {
        guard var c = contacts[i] else { return }
        c.x = change.x
        c.y = change.y
        c.pressure = change.pressure
        if change.pressure > records[i].peak { records[i].peak = change.pressure }
        if change.pressure < records[i].lowest { records[i].lowest = change.pressure }
        let from = recordsTransitions ? c.detector.stateName : ""
        let t = c.detector.handle(
            .frame(time: time, x: change.x, y: change.y, pressure: change.pressure), thresholds: thresholds)
        if !records[i].moved {
            // The detector measures the slop itself while a long press is possible: only once it no
            // longer does (a peek) does the learner's "moved" need its own look.
            switch c.detector.state {
            case .possible: break
            case .tracking: records[i].moved = true
            case .longPressed, .peeking, .quickActions, .popped, .ended:
                let r = records[i]
                records[i].moved = PeekPopDetector.beyondSlop(dx: change.x &- r.originX, dy: change.y &- r.originY, thresholds)
            }
        }
        if recordsTransitions { record(c, from: from, input: "frame(p=\(change.pressure))", t) }
        emit(t, contact: c, index: i, time: time)
        if change.phase == .moved { touch(.moved, c, time) }
        contacts[i] = c
        if t.timer != .none { deadlinesChanged = true }
    }

    private mutating func recomputeDeadline() {
        var earliest: Timestamp? = nil
        for c in contacts {
            earliest = .earliest(earliest, c?.detector.deadline)
        }
        nextDeadline = earliest
    }

    @inline(__always)
    private mutating func emit(_ t: PeekPopDetector.Transition, contact c: ActiveContact, index i: Int, time: Timestamp) {
        if let g = t.first { note(g, i); outputs.append(event(.gesture(g), c, time, progress: nil)) }
        if let g = t.second { note(g, i); outputs.append(event(.gesture(g), c, time, progress: nil)) }
    }

    @inline(__always)
    private mutating func note(_ g: GestureKind, _ i: Int) {
        if g == .pop { records[i].popped = true } else if g == .longPress { records[i].longPressed = true }
    }

    @inline(__always)
    private mutating func touch(_ phase: PressureEvent.TouchPhase, _ c: ActiveContact, _ time: Timestamp) {
        guard reportsTouches else { return }
        outputs.append(event(.touch(phase), c, time, progress: progress(c)))
    }

    /// Inlined, as ``progress(_:)`` is: called from the mutating frame path, a call that is not inlined
    /// gets a copy of the whole pipeline (1,368 bytes, a `memcpy` each) as its `self`, two a touch line.
    @inline(__always)
    func event(_ kind: PressureEvent.Kind, _ c: ActiveContact, _ time: Timestamp, progress: Double?)
        -> PressureEvent
    {
        let screen = geometry.map(x: c.x, y: c.y, xAxis: xAxis, yAxis: yAxis)
        return PressureEvent(
            kind: kind, time: time, device: deviceID, contact: c.id, x: c.x, y: c.y,
            screenX: screen.x + screenOrigin.x, screenY: screen.y + screenOrigin.y, force: force(raw: c.pressure), maximumPossibleForce: maximumForce,
            progress: progress)
    }

    private mutating func record(_ c: ActiveContact, from: String, input: String, _ t: PeekPopDetector.Transition) {
        guard recordsTransitions else { return }
        transitions.append(StateTransition(
            contact: c.id, from: from, input: input, to: c.detector.stateName, impossible: t.impossible))
    }
}
