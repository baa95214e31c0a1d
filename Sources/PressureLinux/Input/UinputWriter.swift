import CLinux
import Glibc
import PressureCommandLine
import PressureCore

/// Writing events to a uinput device pressured made (filter mode's clone, an action's pointer or
/// keyboard): a frame (or an action's frames) in one `write(2)` through the syscall funnel, the kernel
/// stamping them as they arrive; a write that fails or takes less is logged once, not once a frame.
struct UinputWriter {
    /// The events as the kernel takes them, kept between writes so writing allocates nothing.
    private var out: [input_event] = []
    /// A failed write was logged.
    private var warned = false

    init() { out.reserveCapacity(64) }

    /// Writes `events` to `descriptor`; `node` and `what` name the device in the log line.
    mutating func write(_ events: [InputEvent], descriptor: Int32, node: String, what: String) {
        guard !events.isEmpty else { return }
        out.removeAll(keepingCapacity: true)
        for e in events { out.append(input_event(time: timeval(), type: e.type, code: e.code, value: e.value)) }
        let meant = out.count * MemoryLayout<input_event>.stride
        let failure: TouchClone.WriteFailure
        do {
            let written = try syscall("write", node) {
                out.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            }
            guard written != meant else { return }
            failure = .short(written: written, meant: meant)
        } catch {
            failure = .failed(error)
        }
        if !warned {
            warned = true
            Log.warning("\(node): writing \(what): \(failure)")
        }
    }
}
