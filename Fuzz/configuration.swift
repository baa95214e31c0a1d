// libFuzzer target: the configuration parser. pressured.conf is admin-written, but SIGHUP and `reload`
// re-read it in a running daemon, so a typo must give a ConfigurationError, never a crash.

import PressureCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfiguration(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // Files are decoded as UTF-8 with repair, as ConfigurationLoader does.
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let configuration = try? Configuration.parse(text, file: "fuzz.conf") else { return 0 }
    // A parsed configuration is then used: merged, and its calibration resolved for a device.
    let merged = Configuration.merged([configuration, configuration])
    _ = merged.settings
    _ = merged.matchingSections(for: FuzzDevices.slotted)
    if let axis = FuzzDevices.slotted.axis(AbsCode.mtPressure) {
        _ = try? merged.calibration(for: FuzzDevices.slotted, pressureAxis: axis)
    }
    return 0
}
