// Shared by the capture-reader targets: whatever a reader accepted is replayed through the core exactly
// as `pressurectl replay` does, with the invariants checked, so a reader that produces odd (but
// accepted) events cannot hide a core bug behind "it parsed".

import PressureCapture
import PressureCore

enum FuzzReplay {
    /// Captures can hold millions of events; a fuzz input that expands to more is cut short so one
    /// input never takes seconds (libFuzzer reports slow inputs as timeouts).
    static let maximumEvents = 20_000

    static func replay(_ capture: Capture, name: String) {
        guard let device = try? TouchDevice(capture.device) else { return }
        let calibration = device.hasPressure ? device.pressureAxis.map { ForceCalibration.uncalibrated(axis: $0) } : nil
        var pipeline = TouchPipeline(
            device: device, deviceID: 1, calibration: calibration, settings: GestureSettings(), reportsTouches: true)
        var check = FuzzInvariants(name: name)
        CaptureReplay.run(Array(capture.events.prefix(maximumEvents)), through: &pipeline) { out, _ in
            for e in out { check.see(e) }
        }
        check.finish()
    }
}

/// Devices the targets that need one use.
enum FuzzDevices {
    /// A protocol B touchscreen: 10 slots, 0..4095 at 16 units/mm, pressure 0..1000.
    static let slotted = DeviceDescription(
        name: "Fuzz MT Touchscreen", identity: DeviceIdentity(bus: 0x03, vendor: 0x1234, product: 0x5678),
        properties: [InputProperty.direct],
        codes: [EventType.key: [KeyCode.btnTouch]],
        absInfo: [
            AbsCode.x: AbsInfo(minimum: 0, maximum: 4095, resolution: 16),
            AbsCode.y: AbsInfo(minimum: 0, maximum: 4095, resolution: 16),
            AbsCode.pressure: AbsInfo(minimum: 0, maximum: 1000),
            AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 9),
            AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 4095, resolution: 16),
            AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 4095, resolution: 16),
            AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
            AbsCode.mtPressure: AbsInfo(minimum: 0, maximum: 1000),
        ])
}
