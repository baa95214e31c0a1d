import PressureCapture
import PressureCore

/// A capture ready to run: its device, the calibration it gets, and a pipeline set up for it. The capture
/// is streamed from its file (its first pass done): play it with a ``CaptureReplay``.
public struct ReplaySetup {
    public var capture: CaptureStream
    public var device: TouchDevice
    public var calibration: ResolvedCalibration?
    public var pipeline: TouchPipeline
}
