import Glibc
import PressureCommandLine

/// Hot-plug without udev: `eventN` nodes in a directory (`/dev/input`), watched with inotify.
///
/// It reports nodes, not devices: the caller opens each with ``EvdevDevice`` and keeps the ones
/// ``TouchDeviceFilter/isTouch(_:)-(DeviceDescription)`` accepts. devtmpfs removes `/dev/input` with its
/// last device and makes it again with the next, so while the directory is missing its parent is
/// watched for it to come back.
public final class DevInputWatcher: HotplugSource {
    public let directory: String
    public let fd: Int32
    public var nodesAreClassified: Bool { false }

    /// Watch descriptors: of the directory while it exists, of its parent while it does not.
    private var directoryWatch: Int32 = -1
    private var parentWatch: Int32 = -1
    /// Nodes reported present (full paths), so that every removal matches an addition.
    private var known: Set<String> = []
    /// Nodes the caller could not open for lack of permission, by name in the directory.
    private var awaitingPermission: Set<String> = []
    private var buffer: [UInt8]

    static let directoryMask = UInt32(IN_CREATE | IN_DELETE | IN_ATTRIB | IN_MOVED_TO | IN_MOVED_FROM)
        | UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
    static let parentMask = UInt32(IN_CREATE | IN_MOVED_TO | IN_ONLYDIR)
    /// Room for many events a read; one event is 16 bytes plus a short name.
    static let bufferSize = 16 * 1024

    /// Starts watching `directory` (or, if it is missing, its parent for it to appear). Call ``scan()``
    /// next for the nodes already there.
    public init(directory: String = DeviceDiscovery.defaultInputDirectory) throws(SystemError) {
        self.directory = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        fd = try syscall("inotify_init1", directory) { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
        buffer = [UInt8](repeating: 0, count: Self.bufferSize)
        do { try attach() } catch {
            Glibc.close(fd)
            throw error
        }
    }

    deinit { Glibc.close(fd) }

    /// The `eventN` nodes in the directory now, in number order (none while it is missing).
    public func scan() -> [String] {
        let nodes = Self.eventNodes(in: directory)
        known = Set(nodes)
        return nodes
    }

    public func retryWhenAttributesChange(_ node: String) {
        awaitingPermission.insert(String(EventNode.basename(node)))
    }

    /// Reads every pending inotify event. Names other than `eventN` are ignored. A node that was already
    /// reported is not reported again, except after ``retryWhenAttributesChange(_:)``.
    public func receive() -> [Hotplug] {
        var changes: [Hotplug] = []
        while true {
            let n: Int
            do {
                let read = try nonblockingSyscall("read", directory) {
                    buffer.withUnsafeMutableBytes { b in Glibc.read(fd, b.baseAddress, b.count) }
                }
                guard let read, read > 0 else { return changes }  // nil: nothing more pending
                n = read
            } catch {
                Log.warning("inotify: \(error)")
                return changes
            }
            parse(count: n, into: &changes)
        }
    }

    // MARK: Events

    private func parse(count: Int, into changes: inout [Hotplug]) {
        var offset = 0
        // struct inotify_event: wd, mask, cookie, len, then `len` bytes of NUL-padded name.
        while offset + 16 <= count {
            let (wd, mask, length) = buffer.withUnsafeBytes { b in
                (b.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                 b.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                 Int(b.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)))
            }
            let nameStart = offset + 16
            let nameEnd = min(count, nameStart + length)
            let name = String(decoding: buffer[nameStart..<nameEnd].prefix { $0 != 0 }, as: UTF8.self)
            offset = nameEnd
            handle(wd: wd, mask: mask, name: name, into: &changes)
        }
    }

    func handle(wd: Int32, mask: UInt32, name: String, into changes: inout [Hotplug]) {
        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
            Log.warning("inotify: \(directory): events lost; rescanning")
            changes += rescan()
            return
        }
        if wd == parentWatch && wd >= 0 {
            if name == String(EventNode.basename(directory)) && mask & UInt32(IN_ISDIR) != 0 {
                do { try attach() } catch { Log.warning("inotify: \(error)") }
                changes += rescan()
            }
            return
        }
        guard wd == directoryWatch && wd >= 0 else { return }  // a watch already given up
        if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 {
            detach()
            changes += rescan()
            return
        }
        guard EventNode.number(name) != nil else { return }
        let node = directory + "/" + name
        if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
            if known.insert(node).inserted { changes.append(.added(node: node)) }
        } else if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 {
            awaitingPermission.remove(name)
            if known.remove(node) != nil { changes.append(.removed(node: node)) }
        } else if mask & UInt32(IN_ATTRIB) != 0 {
            if awaitingPermission.remove(name) != nil && known.contains(node) { changes.append(.added(node: node)) }
        }
    }

    // MARK: Watches

    /// Watches the directory; if it is missing, watches the parent for it instead.
    private func attach() throws(SystemError) {
        let dirWD = inotify_add_watch(fd, directory, Self.directoryMask)
        if dirWD >= 0 {
            directoryWatch = dirWD
            if parentWatch >= 0 {
                _ = inotify_rm_watch(fd, parentWatch)
                parentWatch = -1
            }
            return
        }
        let e = Glibc.errno
        guard e == ENOENT else { throw SystemError(call: "inotify_add_watch", subject: directory, errno: e) }
        if parentWatch < 0 {
            let parent = Self.parent(of: directory)
            parentWatch = try syscall("inotify_add_watch", parent) { inotify_add_watch(fd, parent, Self.parentMask) }
        }
        // The directory may have appeared between the two calls, before the parent was watched.
        let again = inotify_add_watch(fd, directory, Self.directoryMask)
        if again >= 0 {
            directoryWatch = again
            _ = inotify_rm_watch(fd, parentWatch)
            parentWatch = -1
        }
    }

    /// The directory went away: its nodes went with it, and the parent is watched for its return.
    private func detach() {
        directoryWatch = -1
        awaitingPermission.removeAll()
        do { try attach() } catch { Log.warning("inotify: \(error)") }
    }

    /// Brings ``known`` up to date with the directory, reporting the difference.
    private func rescan() -> [Hotplug] {
        let now = Set(Self.eventNodes(in: directory))
        let gone = EventNode.sorted(known.subtracting(now)).map { Hotplug.removed(node: $0) }
        let new = EventNode.sorted(now.subtracting(known)).map { Hotplug.added(node: $0) }
        known = now
        return gone + new
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `eventN` entries of a directory, as full paths in number order; none if it cannot be read.
    public static func eventNodes(in directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var nodes: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if EventNode.number(name) != nil { nodes.append(directory + "/" + name) }
        }
        return EventNode.sorted(nodes)
    }
}

@available(*, unavailable, message: "a DevInputWatcher belongs to the thread that polls it")
extension DevInputWatcher: Sendable {}
