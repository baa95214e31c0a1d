// libFuzzer target: the evtest and getevent readers on arbitrary bytes (see evemu.swift for why), each
// with and without a `--desc` description and a `--device N`, and the format detection in front of them.

import PressureCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTextLogs(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    _ = CaptureReader.format(of: bytes)
    // The first byte picks `--device N` (or none) and whether a description stands in for the log's own.
    let index: Int? = size > 0 && data[0] & 0x70 == 0 ? Int(data[0] & 0x7) : nil
    let description = size > 0 && data[0] & 0x80 != 0
        ? DeviceDescription(name: "", codes: [EventType.abs: [AbsCode.mtPositionX, AbsCode.mtPositionY]],
                            absInfo: [AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 100),
                                      AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 100)])
        : nil
    if let c = try? EvtestReader.read(bytes, file: "fuzz.evtest.txt", description: description, deviceIndex: index) {
        FuzzReplay.replay(c, name: "evtest")
    }
    if let c = try? GeteventReader.read(bytes, file: "fuzz.getevent.txt", description: description, deviceIndex: index) {
        FuzzReplay.replay(c, name: "getevent")
    }
    return 0
}
