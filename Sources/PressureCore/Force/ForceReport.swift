/// A device's force in one line for people (`pressurectl devices`, `replay --verbose`, the daemon's log).
public enum ForceReport {
    public static func line(_ pipeline: TouchPipeline) -> String {
        DeviceForceStatus(device: pipeline.deviceID, pipeline: pipeline).summary
    }
}
