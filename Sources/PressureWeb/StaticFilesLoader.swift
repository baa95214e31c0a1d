import Glibc
import PressureCommandLine
import PressureSystem
import PressureWebBridge

/// Reads the served folder into ``StaticFiles`` once, at start-up and on `SIGHUP`.
enum StaticFilesLoader {
    /// No more than this is held in memory (a kiosk's page and the module are far smaller).
    static let maximumTotal = 32 << 20
    static let maximumDepth = 4

    static func load(root: String) throws(SystemError) -> StaticFiles {
        var files = StaticFiles()
        var total = 0
        try walk(root: root, relative: "", depth: 0, into: &files, total: &total)
        return files
    }

    private static func walk(root: String, relative: String, depth: Int, into files: inout StaticFiles, total: inout Int)
        throws(SystemError)
    {
        let folder = relative.isEmpty ? root : root + "/" + relative
        guard let dir = opendir(folder) else { throw SystemError(call: "opendir", subject: folder, errno: errno) }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if !name.hasPrefix(".") { names.append(name) }
        }
        for name in names.sorted() {
            let path = relative.isEmpty ? name : relative + "/" + name
            var st = stat()
            guard stat(root + "/" + path, &st) == 0 else { continue }
            if st.st_mode & S_IFMT == S_IFDIR {
                if depth < maximumDepth { try walk(root: root, relative: path, depth: depth + 1, into: &files, total: &total) }
            } else if st.st_mode & S_IFMT == S_IFREG {
                let bytes = try FileBytes.read(root + "/" + path)
                total += bytes.count
                guard total <= maximumTotal else {
                    throw SystemError(call: "read", subject: root + "/" + path, errno: EFBIG)
                }
                if !files.add(relativePath: path, bytes: bytes) {
                    Log.warning("\(root)/\(path): not served (names are letters, digits, '.', '_', '-')")
                }
            }
        }
    }
}
