import Foundation
import Glibc
import PressureCapture
import PressureCommandLine
import PressureCore
import PressureHub
import PressureLinux

// pressure-bench: prints figures, asserts nothing (tests assert behaviour; this measures).
//
//   swift run -c release pressure-bench CAPTURE      (evemu, libinput record, evtest or getevent text)
//
// 1. core: ns per event through TouchPipeline alone (events already in memory, gestures only).
// 2. replay: events per second for a whole replay (capture bytes in memory → parse → pipeline → JSON lines)
//    as `pressurectl replay` streams it (an evemu header first, then one pass that checks and plays), the
//    same work the C yardstick in Benchmarks/c-reference does, file reading excluded on both sides.
//    (tools/bench-replay measures the tool itself, file reading and memory included, against a C floor.)
// 3, 4: touches encoded too, and parsing alone, for scale.
// 5. hub fan-out: the capture through the Hub frame by frame to 1, 16 and 64 clients subscribed to gestures
//    and touches, drained after each frame (HubFanOut.swift): ns per frame, and per line delivered; and to
//    one such client beside four that never read (their queues fill and their touches coalesce).

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func best(of runs: Int, _ body: () -> Void) -> Double {
    var fastest = Double.infinity
    for _ in 0..<runs {
        let start = now()
        body()
        fastest = min(fastest, now() - start)
    }
    return fastest
}

let args = Array(CommandLine.arguments.dropFirst())
guard let path = args.first else {
    Log.plain("usage: pressure-bench CAPTURE   (any format replay reads; make an evemu one with tools/gen-capture.py)")
    exit(2)
}
let bytes: [UInt8]
do { bytes = try FileBytes.read(path) } catch {
    Log.error("\(error)")
    exit(1)
}
let capture: Capture
do { capture = try CaptureLoader.load(path: path) } catch {
    Log.error("\(error)")
    exit(1)
}
guard let device = try? TouchDevice(capture.device) else {
    Log.error("\(path): not a touch device")
    exit(1)
}
let calibration = device.pressureAxis.map { ForceCalibration.uncalibrated(axis: $0) }
// What the daemon gives a device nobody configured: its average touch learned from its touches.
let learning = calibration.map { ForceModel.Setup.learning($0, nil) } ?? .none
let eventCount = capture.events.count
print("capture: \(path): \(eventCount) events, \(device.description.name)")

// 1. The core alone: learning the average touch (the default), and with the average configured (nothing
// learned), alternated in one run so the machine's noise falls on both.
var gestures = 0
var learned = Double.infinity, configured = Double.infinity
for _ in 0..<3 {
    for (setup, isLearning) in [(calibration.map { ForceModel.Setup.configured($0) } ?? .none, false), (learning, true)] {
        let seconds = best(of: 5) {
            var pipeline = TouchPipeline(device: device, deviceID: 1, force: setup, settings: GestureSettings())
            var n = 0
            CaptureReplay.run(capture.events, through: &pipeline) { out, _ in n += out.count }
            gestures = n
        }
        if isLearning { learned = min(learned, seconds) } else { configured = min(configured, seconds) }
    }
}
print(String(format: "core: %.1f ns/event learning the average touch (%d gestures), %.1f ns/event with it configured",
             learned * 1e9 / Double(eventCount), gestures, configured * 1e9 / Double(eventCount)))

// 2. A whole replay from bytes: parse, pipeline, encode.
var outputBytes = 0
let replaySeconds = best(of: 5) {
    let result: Result<Int, CaptureError> = bytes.withUnsafeBufferPointer { b in
        do throws(CaptureError) {
            var replay = try CaptureReplay(
                CaptureReader.open(CaptureLines(file: path, memory: b), firstPass: .header))
            var pipeline = TouchPipeline(device: device, deviceID: 1, force: learning, settings: GestureSettings())
            var out: [UInt8] = []
            out.reserveCapacity(1 << 16)
            var written = 0
            try CaptureReplay.run(&replay, through: &pipeline) { events, _ in
                for e in events { WireFormat.append(e, to: &out) }
                if out.count > 1 << 15 {
                    written += out.count
                    out.removeAll(keepingCapacity: true)
                }
            }
            return .success(written + out.count)
        } catch { return .failure(error) }
    }
    outputBytes = (try? result.get()) ?? -1
}
print(String(format: "replay: %.2f M events/s (%.3f s, %d output bytes, best of 5)",
             Double(eventCount) / replaySeconds / 1e6, replaySeconds, outputBytes))

// 3. Touches too (every frame becomes JSON), for scale.
let touchesSeconds = best(of: 3) {
    var pipeline = TouchPipeline(device: device, deviceID: 1, force: learning, settings: GestureSettings(),
                                 reportsTouches: true)
    var out: [UInt8] = []
    out.reserveCapacity(1 << 16)
    CaptureReplay.run(capture.events, through: &pipeline) { events, _ in
        for e in events { WireFormat.append(e, to: &out) }
        if out.count > 1 << 15 { out.removeAll(keepingCapacity: true) }
    }
}
print(String(format: "core+touches encoded: %.1f ns/event", touchesSeconds * 1e9 / Double(eventCount)))

// 4. Parsing alone (both passes of a capture read whole), for scale.
let parseSeconds = best(of: 5) {
    _ = bytes.withUnsafeBufferPointer { b in try? CaptureReader.read(b, file: path) }
}
print(String(format: "parse only: %.1f ns/event", parseSeconds * 1e9 / Double(eventCount)))

// 5. The hub's fan-out to clients, sockets aside.
for n in [1, 16, 64] {
    let (seconds, frames, lines) = hubFanOut(capture, subscribers: n, runs: 3)
    print(String(format: "hub fan-out to %2d: %8.1f ns/frame, %5.1f ns/line delivered (%d frames, %d lines, best of 3)",
                 n, seconds * 1e9 / Double(max(frames, 1)), seconds * 1e9 / Double(max(lines, 1)), frames, lines))
}
let (stuckSeconds, stuckFrames, _) = hubFanOut(capture, subscribers: 1, stuck: 4, runs: 3)
print(String(format: "hub fan-out to  1 beside 4 that never read: %8.1f ns/frame (best of 3)",
             stuckSeconds * 1e9 / Double(max(stuckFrames, 1))))
