// libFuzzer target: the evemu reader on arbitrary bytes. Built by tools/fuzz with swiftc against the
// PressureCore sources (not a SwiftPM target, so `swift build` never sees libFuzzer).
//
// A capture file is untrusted input (users replay files they downloaded), so the reader must either
// return a capture or throw a CaptureError: never trap, never read out of bounds. It is read whole and
// streamed in small chunks (FuzzStreaming), which must agree. Whatever it returns is then replayed, so the
// core sees the reader's output exactly as `pressurectl replay` would feed it.

import PressureCapture
import PressureCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEvemu(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    // Half the inputs also go through the description-only path (`--desc FILE`).
    if size > 0, data[0] & 1 == 1 {
        _ = try? EvemuReader.readDescription(bytes, file: "fuzz.desc")
    }
    let capture = FuzzStreaming.agree(
        bytes, name: "fuzz.evemu", whole: { b throws(CaptureError) in try EvemuReader.read(b, file: "fuzz.evemu") },
        open: { lines, firstPass throws(CaptureError) in try CaptureStream.open(lines, format: .evemu, firstPass: firstPass) })
    guard let capture else { return 0 }
    FuzzReplay.replay(capture, name: "evemu")
    return 0
}
