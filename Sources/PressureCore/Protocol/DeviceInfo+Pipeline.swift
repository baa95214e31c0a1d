extension DeviceInfo {
    /// What the pipeline serving device `id` tells apps about it: the pipeline fills the protocol's
    /// value, the protocol knows nothing of pipelines.
    public init(id: Int, node: String, pipeline: TouchPipeline) {
        let device = pipeline.device
        self.init(
            id: id, name: device.description.name, node: node, kind: device.kind,
            forceCapability: pipeline.forceCapability,
            forceUnavailable: pipeline.forceCapability == .available ? nil : pipeline.forceUnavailableReason?.code,
            maximumPossibleForce: pipeline.maximumPossibleForce, widthMillimetres: device.sizeMillimetres?.width,
            heightMillimetres: device.sizeMillimetres?.height, xAxis: AxisRange(device.xAxis),
            yAxis: AxisRange(device.yAxis), screen: pipeline.geometry)
    }
}

extension AxisRange {
    /// The range of a kernel axis (its fuzz, flat and resolution are not sent).
    public init(_ axis: AbsInfo) {
        self.init(minimum: axis.minimum, maximum: axis.maximum)
    }
}
