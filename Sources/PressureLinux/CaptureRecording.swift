import Glibc
import PressureCore

/// A capture being written to a file (or stdout) as its events arrive: the header at once, then each
/// batch of events in one `write`, so the file on disk is complete after every batch and a recording
/// cut short (Ctrl-C, the device unplugged, even `kill -9`) is still a file both formats' tools parse.
///
/// `pressurectl record` feeds it from a live device and, with `--from-capture`, from a recorded one:
/// the same writer and the same file handling either way.
public final class CaptureRecording {
    public let path: String?
    let fd: Int32
    var writer: CaptureWriter
    var pending: [UInt8] = []
    public private(set) var eventCount = 0

    /// Opens `path` (nil or `-`: stdout) and writes the header.
    public init(path: String?, writer: CaptureWriter) throws(SystemError) {
        self.path = path
        self.writer = writer
        fd = try OutputFile.open(path)
        pending.reserveCapacity(1 << 16)
        self.writer.header(to: &pending)
        do throws(SystemError) { try flush() } catch {
            try? OutputFile.close(fd, path: path)
            throw error
        }
    }

    deinit { try? OutputFile.close(fd, path: path) }

    /// Encodes and writes a batch of events.
    public func append(_ events: some Collection<InputEvent>) throws(SystemError) {
        for e in events { writer.append(e, to: &pending) }
        eventCount += events.count
        try flush()
    }

    /// Ends the file and closes it (stdout stays open).
    public func finish() throws(SystemError) {
        writer.finish(to: &pending)
        try flush()
        if fd > 2 { fsync(fd) }
    }

    private func flush() throws(SystemError) {
        guard !pending.isEmpty else { return }
        try OutputFile.write(pending, to: fd)
        pending.removeAll(keepingCapacity: true)
    }
}

/// What `libinput record` notes about the machine (`system:` and `udev:`), read here so the pure writer
/// stays pure.
public enum RecordingContext {
    /// `kernel` (the release, from `uname`) and `dmi` (the machine's modalias), where available.
    public static func system() -> [(key: String, value: String)] {
        var pairs: [(key: String, value: String)] = []
        var u = utsname()
        if uname(&u) == 0 {
            let release = withUnsafeBytes(of: &u.release) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            pairs.append(("kernel", release))
        }
        if let dmi = try? FileBytes.read("/sys/class/dmi/id/modalias") {
            pairs.append(("dmi", String(decoding: dmi.prefix { $0 != 0x0a }, as: UTF8.self)))
        }
        return pairs
    }

    /// The udev properties `libinput record` keeps (`ID_INPUT*`, `LIBINPUT*`, `EVDEV_ABS*`, `MOUSE_DPI`,
    /// `POINTINGSTICK_*`), as `KEY=value` lines in key order; empty where udev is not running.
    public static func udevProperties(ofNode node: String) -> [String] {
        guard UdevDiscovery.isAvailable(), let udev = try? UdevDiscovery() else { return [] }
        let prefixes = ["ID_INPUT", "LIBINPUT", "EVDEV_ABS", "MOUSE_DPI", "POINTINGSTICK_"]
        return udev.properties(ofNode: node)
            .filter { key, _ in prefixes.contains { key.hasPrefix($0) } }
            .sorted { $0.key < $1.key }
            .map { "\($0.key)=\($0.value)" }
    }
}
