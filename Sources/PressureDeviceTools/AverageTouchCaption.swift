import PressureCore

/// The words a picture gives for the average touch its force is measured against, so that nobody reads
/// a flat plot as a panel without pressure: "average touch learned from this capture: 412 of 0..2047,
/// 17 contacts".
enum AverageTouchCaption {
    /// Nil for ``AverageTouchChoice/fresh``: its picture is the one the plot always drew.
    static func text(_ choice: AverageTouchChoice, learning: CaptureLearning?, pipeline: TouchPipeline) -> String? {
        var text: String
        switch choice {
        case .fresh:
            return nil
        case .learnFirst:
            guard let l = learning?.learner else {
                text = source(pipeline)
                break
            }
            if let e = l.estimate {
                text = "average touch learned from this capture: \(raw(e.average)) of \(l.floor)..\(l.top), \(l.accepted) contacts"
            } else {
                text = "too few ordinary contacts to learn the average touch from: \(l.accepted) of the \(l.parameters.warmUp) it needs"
                return text
            }
        case .file(let path):
            let name = path.split(separator: "/").last.map(String.init) ?? path
            guard let l = pipeline.force.learner else {
                text = source(pipeline)
                break
            }
            guard let e = l.estimate else {
                text = "\(name) has yet to learn the average touch: it learns on as the capture plays"
                return text
            }
            text = "average touch from \(name): \(raw(e.average)) of \(l.floor)..\(l.top), \(l.accepted) contacts, learning on"
        }
        if let reason = pipeline.forceUnavailableReason { text += "; force is off: \(reason.explanation)" }
        return text
    }

    /// Where a device that learns nothing from the capture has its average touch.
    static func source(_ pipeline: TouchPipeline) -> String {
        guard let c = pipeline.calibration else {
            return "no force: \(pipeline.forceUnavailableReason?.explanation ?? "unavailable")"
        }
        switch pipeline.force.averageSource {
        case .configured?: return "average touch configured: \(c.average) of \(c.floor)..\(c.top)"
        default: return "average touch: the prior, \(c.average) of \(c.floor)..\(c.top) (LearnAverageTouch = off)"
        }
    }

    static func raw(_ average: Double) -> Int { Int(average.rounded()) }
}
