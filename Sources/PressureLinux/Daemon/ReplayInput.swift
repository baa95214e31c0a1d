import PressureCapture
import PressureCore

/// A capture to replay (`pressured --replay`) and what `--learned` says it learned: opened, every line
/// checked and its first batch read, and refused, before the socket is bound, so a daemon that cannot
/// start never accepts a client first. The capture is streamed from its file as it plays (the file
/// stays open).
struct ReplayInput {
    let path: String
    let capture: CaptureStream
    let events: CaptureReplay
    let learned: AverageTouchLearner?

    static func load(_ path: String, options: DaemonOptions) throws(DaemonError) -> ReplayInput {
        let capture: CaptureStream
        do {
            capture = try CaptureLoader.open(
                path: path, descriptionPath: options.replayDescription, deviceIndex: options.replayDevice)
        } catch { throw .replay(error) }
        let events: CaptureReplay
        do { events = try CaptureReplay(capture) } catch { throw .replay(.capture(error)) }
        CaptureLoader.warnAssumptions(capture, prefix: "replay: ")
        var learned: AverageTouchLearner? = nil
        if let file = options.replayLearned {
            guard let device = try? TouchDevice(capture.device) else { throw .replayNotTouch(path) }
            do { learned = try LearnedStateStore.read(path: file, for: device) } catch { throw .learned(error) }
        }
        return ReplayInput(path: path, capture: capture, events: events, learned: learned)
    }
}
