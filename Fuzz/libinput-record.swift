// libFuzzer target: the `libinput record` YAML reader on arbitrary bytes, whole and streamed (see
// evemu.swift for why).

import PressureCapture
import PressureCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLibinputRecord(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    _ = LibinputRecordReader.looksLikeRecord(bytes)
    // The first byte picks `--device N` (or none), so the device-selection paths are reached too.
    let index: Int? = size > 0 && data[0] < 8 ? Int(data[0]) : nil
    let capture = FuzzStreaming.agree(
        bytes, name: "fuzz.yml",
        whole: { b throws(CaptureError) in try LibinputRecordReader.read(b, file: "fuzz.yml", deviceIndex: index) },
        open: { lines, firstPass throws(CaptureError) in
            try CaptureStream.open(lines, format: .libinputRecord, deviceIndex: index, firstPass: firstPass)
        })
    guard let capture else { return 0 }
    FuzzReplay.replay(capture, name: "libinput-record")
    return 0
}
