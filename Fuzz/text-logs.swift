// libFuzzer target: the evtest and getevent readers on arbitrary bytes, whole and streamed (see evemu.swift
// for why), each with and without a `--desc` description and a `--device N`, and the format detection in
// front of them, which must tell the same format from the streamed lines.

import PressureCapture
import PressureCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTextLogs(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let format = CaptureReader.format(of: bytes)
    let chunk = FuzzStreaming.chunkSize(bytes)
    let lines = CaptureLines(file: "fuzz", source: CaptureMemorySource(Array(bytes), chunkSize: chunk), chunkSize: chunk)
    if (try? CaptureReader.format(of: lines)) != format { fatalError("text-logs: the format streamed is not the format whole") }
    // The first byte picks `--device N` (or none) and whether a description stands in for the log's own.
    let index: Int? = size > 0 && data[0] & 0x70 == 0 ? Int(data[0] & 0x7) : nil
    let description = size > 0 && data[0] & 0x80 != 0
        ? DeviceDescription(name: "", codes: [EventType.abs: [AbsCode.mtPositionX, AbsCode.mtPositionY]],
                            absInfo: [AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 100),
                                      AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 100)])
        : nil
    for (format, name) in [(CaptureFormat.evtest, "fuzz.evtest.txt"), (.getevent, "fuzz.getevent.txt")] {
        let capture = FuzzStreaming.agree(
            bytes, name: name,
            whole: { b throws(CaptureError) in
                format == .evtest
                    ? try EvtestReader.read(b, file: name, description: description, deviceIndex: index)
                    : try GeteventReader.read(b, file: name, description: description, deviceIndex: index)
            },
            open: { lines, firstPass throws(CaptureError) in
                try CaptureStream.open(
                    lines, format: format, description: description, deviceIndex: index, firstPass: firstPass)
            })
        if let capture { FuzzReplay.replay(capture, name: format.rawValue) }
    }
    return 0
}
