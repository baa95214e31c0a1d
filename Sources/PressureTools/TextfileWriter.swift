import Glibc

/// Writes a file for node_exporter's textfile collector whole or not at all: into a temporary file in
/// the same directory (a name the collector's `*.prom` never matches), flushed to the disk, then renamed
/// over the old one, so a scrape never reads half a file, not even after a power cut.
enum TextfileWriter {
    /// What failed, on which path, and the system's word for why.
    struct Failure: Error, CustomStringConvertible {
        let step: String
        let path: String
        let errno: Int32
        var description: String { "cannot \(step) \(path): \(String(cString: strerror(errno)))" }
    }

    /// Replaces `directory/name` with `text` (mode 0644: node_exporter runs as its own user).
    static func replace(directory: String, name: String, with text: String) throws(Failure) {
        let path = directory + "/" + name
        let temporary = directory + "/." + name + ".\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure(step: "create", path: temporary, errno: errno) }
        var failure: Failure? = nil
        let bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count, failure == nil {
            let n = bytes.withUnsafeBytes { b in b.baseAddress.map { write(fd, $0 + done, b.count - done) } ?? 0 }
            if n > 0 {
                done += n
            } else if n == 0 || errno != EINTR {
                failure = Failure(step: "write", path: temporary, errno: n == 0 ? EIO : errno)
            }
        }
        if failure == nil, fsync(fd) != 0 { failure = Failure(step: "flush", path: temporary, errno: errno) }
        if close(fd) != 0, failure == nil { failure = Failure(step: "close", path: temporary, errno: errno) }
        if failure == nil, rename(temporary, path) != 0 { failure = Failure(step: "rename into", path: path, errno: errno) }
        if let failure {
            unlink(temporary)
            throw failure
        }
        // The rename itself reaches the disk with the directory.
        let dir = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dir >= 0 {
            _ = fsync(dir)
            _ = close(dir)
        }
    }
}
