import Glibc

/// Where the tools write their files: a path, or standard output for `-` (and for no path at all).
public enum OutputFile {
    /// Opens `path` for writing (created with mode 0644, or emptied), or returns 1 (stdout) for nil or
    /// `-`. The caller closes what it opened: see ``close(_:)``.
    public static func open(_ path: String?) throws(SystemError) -> Int32 {
        guard let path, path != "-" else { return 1 }
        return try syscall("open", path) { Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
    }

    /// Closes a descriptor from ``open(_:)`` (stdout stays open); a failed close of a file means its last
    /// writes may be lost, so it is an error.
    public static func close(_ fd: Int32, path: String?) throws(SystemError) {
        guard fd > 2 else { return }
        _ = try syscall("close", path ?? "output") { Glibc.close(fd) }
    }

    /// Writes all of `bytes` to `fd`.
    public static func write(_ bytes: [UInt8], to fd: Int32) throws(SystemError) {
        var out = BufferedOutput(fd: fd, capacity: 0)
        out.buffer = bytes
        try out.flush()
    }

    /// Replaces the file at `path` with `bytes`: written beside it, flushed to the disk, then renamed over
    /// it, so a reader (the daemon reloading its configuration, or reading what a device learned) never
    /// sees half a file, not even after a power cut.
    public static func replace(_ path: String, with bytes: [UInt8]) throws(SystemError) {
        let temporary = path + ".new"
        let fd = try open(temporary)
        do throws(SystemError) {
            try write(bytes, to: fd)
            _ = try syscall("fsync", temporary) { fsync(fd) }
            try close(fd, path: temporary)
        } catch {
            unlink(temporary)
            throw error
        }
        // Keep the mode of the file being replaced (a 0640 configuration stays 0640).
        var st = stat()
        if stat(path, &st) == 0 { chmod(temporary, st.st_mode & 0o7777) }
        do throws(SystemError) { _ = try syscall("rename", path) { rename(temporary, path) } } catch {
            unlink(temporary)
            throw error
        }
    }
}
