import PressureCapture
import PressureCore
import PressureHub

/// The hub's fan-out, the daemon's loop without its sockets: every event of a capture through
/// `Hub.handle`, one frame at a time as a device delivers them, to `subscribers` clients subscribed to
/// gestures and touches, each drained after every frame as the loop's writes would be (the bytes are
/// counted, not copied), and the work taken as the loop takes it; `stuck` more subscribers never read
/// (their queues fill and their touches coalesce). Returns the seconds the best of
/// `runs` took, the frames, and the lines the clients that read got in all.
func hubFanOut(_ capture: Capture, subscribers n: Int, stuck: Int = 0, runs: Int) -> (seconds: Double, frames: Int, lines: Int) {
    // Frames: the events up to each SYN_REPORT, as one read of a device gives them.
    var frames: [Range<Int>] = []
    var start = 0
    for (i, e) in capture.events.enumerated() where e.type == EventType.syn && e.code == SynCode.report {
        frames.append(start..<(i + 1))
        start = i + 1
    }
    var lines = 0
    let seconds = best(of: runs) {
        var hub = Hub(configuration: Configuration())
        guard let device = hub.addDevice(node: "bench", description: capture.device) else { return }
        var readers = Set<Int>()
        for i in 0..<(n + stuck) {
            let c = hub.connect(mayControl: false)
            hub.receive(client: c, line: Array(#"{"request":"subscribe","events":["gestures","touches"]}"#.utf8)[...],
                        now: Timestamp(microseconds: 0))
            if i < n { readers.insert(c) }
        }
        var work = Hub.Work()
        var newlines = 0
        for f in frames {
            hub.handle(device: device, events: capture.events[f])
            hub.takeWork(&work)
            for c in work.writable where readers.contains(c) {
                hub.drain(client: c) { bytes in
                    // One pass over the bytes, as send(2) makes: counting the lines is that pass.
                    for b in bytes where b == 0x0a { newlines += 1 }
                    return bytes.count
                }
            }
            work.removeAll()
        }
        lines = newlines
    }
    return (seconds, frames.count, lines)
}
