import Glibc
import PressureCapture
import PressureCore

/// A capture file as the core's ``CaptureByteSource``: `read(2)` a chunk at a time and `lseek(2)` back for
/// a second pass, through the syscall funnel. It owns its descriptor, closed when the last reference goes
/// (a `pressured --replay` keeps it open while it plays).
public final class CaptureFile: CaptureByteSource {
    public let path: String
    private let fd: Int32

    /// Opens `path` for reading.
    public init(path: String) throws(SystemError) {
        self.path = path
        fd = try syscall("open", path) { open(path, O_RDONLY | O_CLOEXEC) }
    }

    deinit { close(fd) }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(CaptureError) -> Int {
        do {
            return try syscall("read", path) { Glibc.read(fd, buffer.baseAddress, buffer.count) }
        } catch {
            throw unreadable(error)
        }
    }

    public func seek(to offset: Int) throws(CaptureError) {
        do {
            _ = try syscall("lseek", path) { lseek(fd, off_t(offset), SEEK_SET) }
        } catch {
            throw unreadable(error)
        }
    }

    /// The core's error for a failed call, worded as a ``SystemError`` (`FILE: read: Input/output error`).
    private func unreadable(_ e: SystemError) -> CaptureError {
        CaptureError(
            file: path, line: 0, reason: .unreadable(SystemError(call: e.call, subject: "", errno: e.errno).description))
    }
}
