extension DeviceForceStatus {
    /// What `status` reports of the pipeline serving `device`: the pipeline fills the protocol's value.
    public init(device: Int, pipeline: TouchPipeline) {
        let model = pipeline.force
        let capability = pipeline.forceCapability
        self.init(
            device: device, forceCapability: capability,
            reason: capability == .available ? nil : pipeline.forceUnavailableReason,
            averageSource: model.averageSource, maximumPossibleForce: pipeline.maximumPossibleForce)
        switch model.setup {
        case .none: break
        case .configured(let c), .prior(let c), .learning(let c, _):
            (floor, top) = (c.floor, c.top)
            average = Double(c.average)
        }
        if let l = model.learner {
            samples = l.estimate?.samples ?? l.accepted
            accepted = l.accepted
            median = l.estimate?.median
            average = l.estimate?.average
        }
        if let c = pipeline.calibration { (floor, top) = (c.floor, c.top) }
        let t = pipeline.thresholds
        if t.forceGesturesEnabled {
            (peekRaw, popRaw, peekForce, popForce) = (t.peekRaw, t.popRaw, t.peekForce, t.popForce)
        }
    }
}
