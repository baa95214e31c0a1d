import Glibc
import PressureCapture
import PressureCore
import PressureLinux

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
