import PressureCore

/// The statistics behind `pressurectl calibrate`, as libinput's `measure touchpad-pressure` and tslib's
/// `ts_calibrate` gather them: the person first taps as they normally would, then presses firmly; each
/// finished contact's pressure at touch-down, at lift and at its peak is kept, per phase, and the session
/// proposes a ``ForceCalibration`` from them (see ``proposal()`` for the method).
///
/// Pure: it takes evdev events (through its own ``ContactTracker``, exactly as the daemon tracks
/// contacts) or contact changes, and never reads a clock, so a live device and a recorded capture go
/// through the same code.
public struct CalibrationSession: Sendable {
    /// What the person is asked to do.
    public enum Phase: String, Sendable {
        /// Ordinary taps: how hard this person touches when not pressing.
        case taps
        /// Firm presses: the top of the range they use.
        case presses
    }

    /// One finished contact: its phase (the one it began in) and the raw pressures that matter.
    public struct Contact: Hashable, Sendable {
        public var phase: Phase
        /// Pressure in the contact's first frame: a finger just arriving.
        public var down: Int32
        /// Pressure in its last frame before the lift: a finger leaving.
        public var lift: Int32
        public var peak: Int32
        public var began: Timestamp
        public var ended: Timestamp
    }

    /// Why a device cannot be calibrated.
    public struct NoPressure: Error, Equatable, CustomStringConvertible {
        public var name: String
        public var description: String {
            "\"\(name)\" reports no pressure, so there is nothing to calibrate (long press works without it)"
        }
    }

    /// The pressure axis being calibrated.
    public let axis: AbsInfo
    /// The phase contacts that begin from now on belong to.
    public var phase: Phase = .taps
    /// Every finished contact, in the order they ended. Cancelled contacts (`SYN_DROPPED`, the device
    /// vanishing) are not here: their pressures are incomplete; nor are palms.
    public private(set) var contacts: [Contact] = []
    /// Contacts still down, by the tracker's index.
    public private(set) var live: [Int: Contact] = [:]
    var tracker: ContactTracker?

    /// A session fed with contact changes directly (``take(_:at:)``), for an axis.
    public init(axis: AbsInfo) { self.axis = axis }

    /// A session fed with the device's evdev events (``handle(_:)``).
    public init(device: TouchDevice) throws(NoPressure) {
        guard device.hasPressure, let axis = device.pressureAxis else {
            throw NoPressure(name: device.description.name)
        }
        self.axis = axis
        tracker = ContactTracker(device: device)
    }

    /// The finished contacts of one phase.
    public func contacts(in phase: Phase) -> [Contact] { contacts.filter { $0.phase == phase } }

    /// Feeds one evdev event; returns the contacts that finished in the frame it completed.
    @discardableResult
    public mutating func handle(_ event: InputEvent) -> [Contact] {
        guard var t = tracker else { return [] }
        let frame = t.handle(event)
        var finished: [Contact] = []
        if frame {
            for change in t.changes {
                if let c = take(change, at: event.time) { finished.append(c) }
            }
        }
        tracker = t
        return finished
    }

    /// Feeds one contact change; returns the contact if this change finished it.
    @discardableResult
    public mutating func take(_ change: ContactChange, at time: Timestamp) -> Contact? {
        let p = axis.clamp(change.pressure)
        switch change.phase {
        case .began:
            live[change.index] = Contact(phase: phase, down: p, lift: p, peak: p, began: time, ended: time)
        case .moved:
            guard var c = live[change.index] else { return nil }
            c.lift = p
            c.peak = max(c.peak, p)
            live[change.index] = c
        case .ended:
            guard var c = live.removeValue(forKey: change.index) else { return nil }
            // The lift frame carries the last pressure the contact had; it is the finger leaving.
            c.lift = p
            c.peak = max(c.peak, p)
            c.ended = time
            // A contact that never rose above the axis minimum says nothing about pressure.
            guard c.peak > axis.minimum else { return nil }
            contacts.append(c)
            return c
        case .cancelled, .cancelledAsPalm:
            // Incomplete, or a palm: neither says how this person touches.
            live.removeValue(forKey: change.index)
        }
        return nil
    }

    /// The proposed calibration:
    /// - **floor**: the 10th percentile (nearest rank) of the taps' touch-down and lift pressures: a finger
    ///   arriving or leaving is the lightest contact there is, so at or below it is noise (force 0).
    /// - **average**: the median peak of the ordinary taps: force 1.0 is this person's ordinary touch.
    /// - **top**: the 95th percentile (nearest rank) of the firm presses' peaks, clamped to the axis,
    ///   ignoring one freak spike in twenty.
    ///
    /// Valid when `floor < average <= top`; otherwise the error says which phase to repeat and how.
    public func proposal() throws(CalibrationError) -> CalibrationProposal {
        let taps = contacts(in: .taps)
        let presses = contacts(in: .presses)
        guard !taps.isEmpty else { throw .noTaps }
        guard !presses.isEmpty else { throw .noPresses }
        let floor = max(axis.minimum, Self.percentile(taps.flatMap { [$0.down, $0.lift] }, 10))
        let average = Self.median(taps.map(\.peak))
        let top = axis.clamp(Self.percentile(presses.map(\.peak), 95))
        guard floor < average else { throw .tapsTooLight(floor: floor, average: average) }
        guard average <= top else { throw .pressesNotFirmer(average: average, top: top) }
        guard let calibration = ForceCalibration(floor: floor, average: average, top: top) else {
            throw .tapsTooLight(floor: floor, average: average)
        }
        return CalibrationProposal(
            calibration: calibration, taps: taps.count, presses: presses.count, pressPeaks: presses.map(\.peak))
    }

    /// Nearest-rank percentile: the smallest value with at least `p`% of the values at or below it.
    /// Nearest rank always returns a value that was measured, never an interpolation between two.
    public static func percentile(_ values: [Int32], _ p: Int) -> Int32 {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let rank = (p * sorted.count + 99) / 100
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// The middle value; for an even count the mean of the two middle ones, rounded half up.
    public static func median(_ values: [Int32]) -> Int32 {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let mid = sorted.count / 2
        if sorted.count % 2 == 1 { return sorted[mid] }
        let sum = Int64(sorted[mid - 1]) + Int64(sorted[mid])
        return Int32(truncatingIfNeeded: (sum + 1) >> 1)
    }
}
