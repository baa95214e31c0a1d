/// Everything one device's input goes through: contact tracking, force, and a ``PeekPopDetector`` per
/// contact. The daemon and `pressurectl replay` both drive exactly this.
///
/// Feed events with ``handle(_:)``, and the long-press deadline back with ``tick(_:)`` whenever
/// ``nextDeadline`` is due (before any later event). After each call, ``outputs`` holds what apps receive,
/// in order; the owner drains it with ``clearOutputs()``. Nothing here allocates once warmed up.
public struct TouchPipeline: Sendable {
    /// One live contact: its id and its gesture state.
    struct ActiveContact: Sendable {
        var id: UInt64
        var detector: PeekPopDetector
        var x: Int32
        var y: Int32
        var pressure: Int32
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
    public private(set) var calibration: ForceCalibration?
    public private(set) var thresholds: GestureThresholds
    /// Where touches land on the screen; the device's own units unless configured.
    public var geometry: ScreenGeometry
    /// Also emit `touch` events (began/moved/ended/cancelled), not only gestures.
    public var reportsTouches: Bool
    public var recordsTransitions = false
    public private(set) var outputs: [PressureEvent] = []
    public private(set) var transitions: [StateTransition] = []
    /// The earliest pending long-press deadline of any contact.
    public private(set) var nextDeadline: Timestamp?

    var contacts: [ActiveContact?]
    var nextContactID: UInt64 = 1
    private let xAxis: AbsInfo
    private let yAxis: AbsInfo
    private var maximumForce: Double
    private var forceScale: Double

    public init(
        device: TouchDevice, deviceID: Int, calibration: ForceCalibration?, settings: GestureSettings,
        reportsTouches: Bool = false, tracking: TrackerSettings = TrackerSettings()
    ) {
        self.deviceID = deviceID
        tracker = ContactTracker(device: device, settings: tracking)
        contacts = Array(repeating: nil, count: tracker.slots.count)
        self.reportsTouches = reportsTouches
        self.settings = settings
        self.calibration = calibration
        thresholds = GestureThresholds(device: device, calibration: calibration, settings: settings)
        geometry = ScreenGeometry.deviceUnits(device)
        xAxis = device.xAxis
        yAxis = device.yAxis
        (maximumForce, forceScale) = (0, 0)
        outputs.reserveCapacity(4 * contacts.count + 4)
        updateForce()
    }

    public var device: TouchDevice { tracker.device }

    /// Force capability as apps see it: hardware pressure and the user's switch.
    public var forceCapability: TouchDevice.ForceCapability {
        thresholds.forceGesturesEnabled ? .available : .unavailable
    }

    /// `maximumPossibleForce` on this device now (0 where force is unavailable).
    public var maximumPossibleForce: Double { maximumForce }

    /// Fingers down now (contacts that began and have not ended).
    public var liveContactCount: Int { contacts.reduce(0) { $0 + ($1 == nil ? 0 : 1) } }

    /// New settings or calibration (SIGHUP, a control request). Live contacts keep their state; the new
    /// thresholds apply from the next frame.
    public mutating func apply(settings: GestureSettings, calibration: ForceCalibration?) {
        self.settings = settings
        self.calibration = calibration
        thresholds = GestureThresholds(device: device, calibration: calibration, settings: settings)
        updateForce()
    }

    private mutating func updateForce() {
        if thresholds.forceGesturesEnabled, let cal = calibration {
            maximumForce = cal.maximumPossibleForce
            forceScale = 1.0 / Double(cal.average - cal.floor)
        } else {
            maximumForce = 0
            forceScale = 0
        }
    }

    public mutating func clearOutputs() {
        outputs.removeAll(keepingCapacity: true)
        transitions.removeAll(keepingCapacity: true)
    }

    /// Force of a raw pressure value on this device (0 where force is unavailable).
    @inline(__always)
    func force(raw: Int32) -> Double {
        guard let cal = calibration, forceScale > 0 else { return 0 }
        return Double(min(max(raw, cal.floor), cal.top) - cal.floor) * forceScale
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

    /// The owner's timer: fires every long press due at or before `now`.
    public mutating func tick(_ now: Timestamp) {
        guard let due = nextDeadline, due <= now else { return }
        for i in contacts.indices {
            guard var c = contacts[i], let d = c.detector.deadline, d <= now else { continue }
            let from = c.detector.stateName
            let t = c.detector.handle(.timeout(d), thresholds: thresholds)
            record(c, from: from, input: "timeout", t)
            emit(t, contact: c, time: d)
            contacts[i] = c
        }
        recomputeDeadline()
    }

    /// Cancels every live contact (device gone, replay over): open peeks are dismissed.
    public mutating func cancelAll(at time: Timestamp) {
        tracker.cancelLiveContacts()
        applyChanges(at: time)
    }

    /// After a libevdev resync: the true slot state (see ``ContactTracker/resync(slots:at:)``).
    public mutating func resync(slots: [(trackingID: Int32, x: Int32, y: Int32, pressure: Int32)], at time: Timestamp) {
        tracker.resync(slots: slots)
        applyChanges(at: time)
    }


    mutating func applyChanges(at time: Timestamp) {
        var deadlinesChanged = false
        for change in tracker.changes {
            let i = change.index
            switch change.phase {
            case .began:
                let c = ActiveContact(
                    id: nextContactID,
                    detector: PeekPopDetector(downAt: time, x: change.x, y: change.y, thresholds: thresholds),
                    x: change.x, y: change.y, pressure: change.pressure)
                nextContactID &+= 1
                contacts[i] = c
                touch(.began, c, time)
                if let d = c.detector.deadline, nextDeadline.map({ d < $0 }) ?? true { nextDeadline = d }
                frame(i, change, time, &deadlinesChanged)
            case .moved:
                frame(i, change, time, &deadlinesChanged)
            case .ended, .cancelled, .cancelledAsPalm:
                guard var c = contacts[i] else { continue }
                let from = c.detector.stateName
                let lifted = change.phase == .ended
                let t = c.detector.handle(lifted ? .lift(time) : .cancel(time), thresholds: thresholds)
                record(c, from: from, input: lifted ? "lift" : "cancel", t)
                emit(t, contact: c, time: time)
                touch(lifted ? .ended : .cancelled, c, time)
                contacts[i] = nil
                if t.timer != .none { deadlinesChanged = true }
            }
        }
        if deadlinesChanged { recomputeDeadline() }
    }

    @inline(__always)
    private mutating func frame(_ i: Int, _ change: ContactChange, _ time: Timestamp, _ deadlinesChanged: inout Bool) {
        guard var c = contacts[i] else { return }
        c.x = change.x
        c.y = change.y
        c.pressure = change.pressure
        let from = recordsTransitions ? c.detector.stateName : ""
        let t = c.detector.handle(
            .frame(time: time, x: change.x, y: change.y, pressure: change.pressure), thresholds: thresholds)
        if recordsTransitions { record(c, from: from, input: "frame(p=\(change.pressure))", t) }
        emit(t, contact: c, time: time)
        if change.phase == .moved { touch(.moved, c, time) }
        contacts[i] = c
        if t.timer != .none { deadlinesChanged = true }
    }

    private mutating func recomputeDeadline() {
        var earliest: Timestamp? = nil
        for c in contacts {
            if let d = c?.detector.deadline, earliest.map({ d < $0 }) ?? true { earliest = d }
        }
        nextDeadline = earliest
    }

    @inline(__always)
    private mutating func emit(_ t: PeekPopDetector.Transition, contact c: ActiveContact, time: Timestamp) {
        if let g = t.first { outputs.append(event(.gesture(g), c, time, progress: nil)) }
        if let g = t.second { outputs.append(event(.gesture(g), c, time, progress: nil)) }
    }

    @inline(__always)
    private mutating func touch(_ phase: PressureEvent.TouchPhase, _ c: ActiveContact, _ time: Timestamp) {
        guard reportsTouches else { return }
        outputs.append(event(.touch(phase), c, time, progress: progress(c)))
    }

    private func event(_ kind: PressureEvent.Kind, _ c: ActiveContact, _ time: Timestamp, progress: Double?)
        -> PressureEvent
    {
        let screen = geometry.map(x: c.x, y: c.y, xAxis: xAxis, yAxis: yAxis)
        return PressureEvent(
            kind: kind, time: time, device: deviceID, contact: c.id, x: c.x, y: c.y, screenX: screen.x,
            screenY: screen.y, force: force(raw: c.pressure), maximumPossibleForce: maximumForce,
            progress: progress)
    }

    /// Progress towards the next threshold: peek while not peeked, then pop; nil past both, after a long
    /// press, or where force is unavailable.
    private func progress(_ c: ActiveContact) -> Double? {
        guard thresholds.forceGesturesEnabled else { return nil }
        let f = force(raw: c.pressure)
        let t = thresholds
        switch c.detector.state {
        case .possible, .tracking:
            return min(1, max(0, f / t.peekForce))
        case .peeking:
            return t.popForce > t.peekForce ? min(1, max(0, (f - t.peekForce) / (t.popForce - t.peekForce))) : 1
        case .longPressed, .quickActions, .popped, .ended:
            return nil
        }
    }

    private mutating func record(_ c: ActiveContact, from: String, input: String, _ t: PeekPopDetector.Transition) {
        guard recordsTransitions else { return }
        transitions.append(StateTransition(
            contact: c.id, from: from, input: input, to: c.detector.stateName, impossible: t.impossible))
    }
}
