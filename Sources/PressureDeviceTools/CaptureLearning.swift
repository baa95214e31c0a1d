import PressureCapture
import PressureCore

/// The first pass of ``AverageTouchChoice/learnFirst``: the capture played through a fresh device's
/// pipeline, streamed from its file exactly as `pressurectl replay` plays it, so that its learner takes
/// the samples the daemon's would (the same ``AverageTouchLearner`` and guards: no grazes, palms, rare
/// pops or holds, light floods) and the second pass can show every contact with what it learned.
public struct CaptureLearning: Sendable {
    /// What the fresh device had learned by the capture's end; nil where it learns nothing (no pressure
    /// axis, an average touch configured, `LearnAverageTouch = off`).
    public var learner: AverageTouchLearner?
    /// When the fresh device first had force; nil where it was still learning when the capture ended.
    public var freshForceFrom: Timestamp?
    /// Whether the fresh device began without force because it had yet to learn.
    public var freshStartedLearning: Bool

    /// What a first pass found (``learn(_:capture:)`` plays one; tests may state one).
    public init(learner: AverageTouchLearner?, freshForceFrom: Timestamp?, freshStartedLearning: Bool) {
        self.learner = learner
        self.freshForceFrom = freshForceFrom
        self.freshStartedLearning = freshStartedLearning
    }

    /// Plays the capture at `path` once, through the pipeline `options` give a fresh device.
    public static func learn(_ options: ReplayOptions, capture path: String) throws(ReplaySetupError)
        -> CaptureLearning
    {
        var setup = try options.load(capture: path, reportsTouches: false)
        let learning = { (p: TouchPipeline) -> Bool in
            if case .learning = p.forceUnavailableReason { return true }
            return false
        }
        let startedLearning = learning(setup.pipeline)
        var forceFrom: Timestamp? = nil
        do throws(CaptureError) {
            var replay = try CaptureReplay(setup.capture)
            try CaptureReplay.run(&replay, through: &setup.pipeline, deliver: { _, _ in }, announce: { p in
                if forceFrom == nil, !learning(p) { forceFrom = p.latestTime }
            })
        } catch {
            throw .capture(.capture(error))
        }
        return CaptureLearning(
            learner: setup.pipeline.force.learner, freshForceFrom: startedLearning ? forceFrom : nil,
            freshStartedLearning: startedLearning)
    }

    /// What the second pass starts from: the learned estimate, taking no further sample (its graze
    /// guard set to refuse every contact), so that every contact is measured against the same average
    /// touch and thresholds rather than against the capture counted twice. Nil where nothing was learned:
    /// the second pass is then a fresh device's.
    public var held: AverageTouchLearner? {
        guard let l = learner, l.estimate != nil else { return nil }
        var parameters = l.parameters
        parameters.grazeFraction = .infinity
        return try? AverageTouchLearner(restoring: l.saved, parameters: parameters)
    }
}
