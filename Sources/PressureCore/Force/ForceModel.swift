/// How one device's raw pressure becomes force, and where its peek and pop sit: the average touch
/// (configured, learned, or the prior from the axis), the ``ThresholdRule``, and when apps hear that
/// either changed. ``TouchPipeline`` owns one.
///
/// A learned estimate never moves thresholds under a finger: the pipeline calls ``applyLearned()`` only
/// when no contact is down, so a new estimate applies from the next touch-down. Apps are told of a
/// change (``announcementDue(at:)``) only between contacts, when the capability changed or
/// `maximumPossibleForce` moved by more than 2%, and at most once a second of input time.
public struct ForceModel: Hashable, Sendable {
    /// Where the average touch (force 1.0) comes from (the wire's name, as `status` reports it).
    public typealias AverageSource = AverageTouchSource

    /// What a device starts with.
    public enum Setup: Hashable, Sendable {
        /// No pressure axis: force is unavailable.
        case none
        /// The calibration is used as it is.
        case configured(ForceCalibration)
        /// Learning is off and nothing configures the average: the prior is used as it is.
        case prior(ForceCalibration)
        /// The average is learned; the calibration gives floor, top and the prior; a saved learner
        /// (from the state file, or `--learned`) carries on where it stopped.
        case learning(ForceCalibration, AverageTouchLearner?)
    }

    /// Force for the pipeline: a calibration and the forces of peek and pop, or why there is none.
    public enum Outcome: Hashable, Sendable {
        case available(ForceCalibration, ThresholdRule.Forces)
        case unavailable(ForceUnavailableReason)
    }

    /// An average touch closer to the floor than this many raw units leaves too few levels.
    public static let minimumLevels: Int32 = 6
    /// A change of `maximumPossibleForce` smaller than this share is not announced.
    public static let announcedChange = 0.02
    public static let announcementInterval = Timestamp.Duration.milliseconds(1000)

    public private(set) var setup: Setup
    public private(set) var learner: AverageTouchLearner?
    public private(set) var outcome: Outcome
    public private(set) var settings: GestureSettings
    /// The learner took a sample whose effect is not applied yet.
    public private(set) var pending = false
    /// Increases with every sample taken, so an owner can tell that the learner needs saving.
    public private(set) var learnedRevision = 0

    var announcedCapability: Bool
    var announcedMaximum: Double
    var announcedAt: Timestamp?

    public init(_ setup: Setup, settings: GestureSettings) {
        self.setup = setup
        self.settings = settings
        switch setup {
        case .learning(let base, let saved):
            var l = saved ?? AverageTouchLearner(floor: base.floor, top: base.top)
            if l.floor != base.floor || l.top != base.top { l.rebase(floor: base.floor, top: base.top) }
            l.longPressTime = settings.longPressDuration
            learner = l
        case .none, .configured, .prior:
            learner = nil
        }
        outcome = .unavailable(.noPressure)
        announcedCapability = false
        announcedMaximum = 0
        outcome = compute(previous: nil)
        markAnnounced()
    }

    /// The average's source; nil without pressure.
    public var averageSource: AverageSource? {
        switch setup {
        case .none: return nil
        case .configured: return .configured
        case .prior: return .prior
        case .learning: return .learned
        }
    }

    /// The calibration in force, or nil where force is unavailable.
    public var calibration: ForceCalibration? {
        if case .available(let c, _) = outcome { return c }
        return nil
    }

    /// Why force is unavailable; while learning, with the touches learned so far (also those whose
    /// effect waits for the fingers to lift).
    public var unavailableReason: ForceUnavailableReason? {
        guard case .unavailable(let r) = outcome else { return nil }
        if case .learning(_, let needed) = r, let l = learner { return .learning(touches: l.accepted, needed: needed) }
        return r
    }

    public var maximumPossibleForce: Double { calibration?.maximumPossibleForce ?? 0 }

    /// A contact ended: the learner (if any) considers it.
    public mutating func contactEnded(_ summary: ContactSummary) {
        guard learner != nil else { return }
        if learner?.observe(summary) == nil {
            pending = true
            learnedRevision &+= 1
        }
    }

    /// Applies what was learned (call only with no contact down). Returns whether the outcome changed.
    public mutating func applyLearned() -> Bool {
        guard pending else { return false }
        pending = false
        let before = outcome
        outcome = compute(previous: before)
        return outcome != before
    }

    /// New settings or setup (a reload, `set`): applied at once. The learner carries on where it is.
    public mutating func apply(_ newSetup: Setup, settings newSettings: GestureSettings) {
        let saved = learner
        settings = newSettings
        setup = newSetup
        if case .learning(let base, let given) = newSetup {
            var l = given ?? saved ?? AverageTouchLearner(floor: base.floor, top: base.top)
            if l.floor != base.floor || l.top != base.top { l.rebase(floor: base.floor, top: base.top) }
            l.longPressTime = newSettings.longPressDuration
            learner = l
        } else {
            learner = nil
        }
        pending = false
        outcome = compute(previous: outcome)
    }

    /// Forgets what was learned (`pressurectl calibrate --reset`). Returns whether there was a learner.
    public mutating func resetLearning() -> Bool {
        guard learner != nil else { return false }
        learner?.reset()
        learnedRevision &+= 1
        pending = false
        outcome = compute(previous: nil)
        return true
    }

    /// Whether apps should hear about the device now (between contacts, at `time`); if so, it counts
    /// as told.
    public mutating func announcementDue(at time: Timestamp) -> Bool {
        let available = calibration != nil
        let maximum = maximumPossibleForce
        let moved = announcedMaximum > 0
            ? abs(maximum - announcedMaximum) > Self.announcedChange * announcedMaximum
            : maximum != announcedMaximum
        guard available != announcedCapability || moved else { return false }
        if let last = announcedAt, time - last < Self.announcementInterval { return false }
        announcedAt = time
        markAnnounced()
        return true
    }

    /// Apps were told the current state some other way (`device added`, a reload's `device changed`).
    public mutating func markAnnounced() {
        announcedCapability = calibration != nil
        announcedMaximum = maximumPossibleForce
    }

    // MARK: The outcome

    func compute(previous: Outcome?) -> Outcome {
        let base: ForceCalibration
        var spread: ThresholdRule.Spread? = nil
        var average: Double
        if case .none = setup { return .unavailable(.noPressure) }
        guard settings.forceTouchEnabled else { return .unavailable(.turnedOff) }
        switch setup {
        case .none:
            return .unavailable(.noPressure)
        case .configured(let c), .prior(let c):
            base = c
            average = Double(c.average)
        case .learning(let c, _):
            base = c
            guard let l = learner, let e = l.estimate else {
                let l = learner
                return .unavailable(.learning(
                    touches: l?.accepted ?? 0, needed: l?.parameters.warmUp ?? AverageTouchLearner.Parameters().warmUp))
            }
            // Before flatness: a panel whose pressure is its size may also look flat, and size is the cause.
            if e.pressureIsSize { return .unavailable(.pressureIsSize) }
            if e.flat { return .unavailable(.flat) }
            spread = ThresholdRule.Spread(e, floor: c.floor)
            average = e.average
        }
        let rounded = Int32(clamping: Int64(average.rounded()))
        let levels = rounded &- base.floor
        guard levels >= Self.minimumLevels, rounded <= base.top,
              let calibration = ForceCalibration(floor: base.floor, average: rounded, top: base.top)
        else { return .unavailable(.tooFewLevels(levels: Int(max(0, levels)))) }
        // A learned panel on the edge of having room keeps its state unless the evidence moves clearly.
        var gap = ThresholdRule.minimumGap
        if case .learning = setup, let previous {
            switch previous {
            case .available: gap -= 0.05
            case .unavailable(.noHeadroom): gap += 0.05
            case .unavailable: break
            }
        }
        switch ThresholdRule.forces(
            headroom: calibration.maximumPossibleForce, spread: spread, sensitivity: settings.sensitivity, gap: gap)
        {
        case .success(let forces): return .available(calibration, forces)
        case .failure(let reason): return .unavailable(reason)
        }
    }
}

extension ForceModel.Setup {
    /// The setup the daemon gives a device, from what the configuration says of its calibration:
    /// configuration always wins over learning (an average set by a section or a udev property is used as
    /// it is); otherwise the average is learned (starting from `learned`, a saved learner), or, with
    /// `LearnAverageTouch = off`, the prior is used.
    public static func resolve(
        _ calibration: ResolvedCalibration?, settings: GestureSettings, learned: AverageTouchLearner? = nil
    ) -> ForceModel.Setup {
        guard let resolved = calibration else { return .none }
        if resolved.sources.average != CalibrationSources.defaultSource { return .configured(resolved.calibration) }
        guard settings.learnAverageTouch else { return .prior(resolved.calibration) }
        return .learning(resolved.calibration, learned)
    }
}
