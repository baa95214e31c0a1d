import Glibc

/// Whole-file reads for configuration, description and learned-average files (captures are streamed:
/// ``CaptureFile``).
public enum FileBytes {
    /// Files larger than this are refused: no configuration is that big, and a bound keeps a mistaken path
    /// (a disk image, `/dev/zero`) from eating memory.
    public static let maximumSize = 2 << 30

    /// Reads the whole file at `path`.
    public static func read(_ path: String) throws(SystemError) -> [UInt8] {
        let fd = try syscall("open", path) { open(path, O_RDONLY | O_CLOEXEC) }
        defer { close(fd) }
        var result: [UInt8] = []
        var st = stat()
        if fstat(fd, &st) == 0, st.st_size > 0 { result.reserveCapacity(min(Int(st.st_size), maximumSize)) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try syscall("read", path) {
                chunk.withUnsafeMutableBytes { buf in Glibc.read(fd, buf.baseAddress, buf.count) }
            }
            if n == 0 { break }
            guard result.count + n <= maximumSize else {
                throw SystemError(call: "read", subject: path, errno: EFBIG)
            }
            result.append(contentsOf: chunk[0..<n])
        }
        return result
    }
}
