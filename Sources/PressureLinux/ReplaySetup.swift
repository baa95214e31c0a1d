import PressureCore

/// A capture ready to run: its device, the calibration it gets, and a pipeline set up for it.
public struct ReplaySetup: Sendable {
    public var capture: Capture
    public var device: TouchDevice
    public var calibration: ResolvedCalibration?
    public var pipeline: TouchPipeline
}
