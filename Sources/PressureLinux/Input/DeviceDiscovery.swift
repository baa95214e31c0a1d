import Glibc

/// A device node that appeared or went away.
public enum Hotplug: Hashable, Sendable {
    case added(node: String)
    case removed(node: String)
}

/// Where device nodes come from: udev (``UdevMonitor``) where it runs, else the directory itself
/// (``DevInputWatcher``). The daemon waits on ``fd`` with epoll and calls ``receive()`` when readable.
public protocol HotplugSource: AnyObject {
    /// Non-blocking, close-on-exec; readable when ``receive()`` has something.
    var fd: Int32 { get }
    /// Whether reported nodes were already judged touch devices (udev). If not, the caller opens each
    /// with ``EvdevDevice`` and asks ``TouchDeviceFilter/isTouch(_:)-(DeviceDescription)``.
    var nodesAreClassified: Bool { get }
    /// The nodes present now, in number order. Call once after creating the source (events from then on
    /// arrive through ``receive()``; a node seen by both is reported once).
    func scan() -> [String]
    /// What changed since the last call; empty when nothing did. Never blocks.
    func receive() -> [Hotplug]
    /// The caller could not open `node` for lack of permission: report it as added again when its
    /// attributes change (device nodes appear before whoever sets their owner and mode has run).
    func retryWhenAttributesChange(_ node: String)
}

/// Picks the hot-plug source: udev when it is running, else a watch on the input directory.
public enum DeviceDiscovery {
    public static let defaultInputDirectory = "/dev/input"

    /// udev if it runs, else an inotify watch on `inputDirectory`.
    public static func makeSource(inputDirectory: String = defaultInputDirectory)
        throws(SystemError) -> any HotplugSource
    {
        if inputDirectory == defaultInputDirectory && UdevDiscovery.isAvailable() {
            return try UdevDiscovery().makeMonitor()
        }
        return try DevInputWatcher(directory: inputDirectory)
    }
}

/// `eventN` node names.
enum EventNode {
    /// The N of `eventN`, or nil for any other name (`mouse0`, `by-id`, `event`, `event3.tmp`).
    static func number(_ name: some StringProtocol) -> Int? {
        guard name.hasPrefix("event") else { return nil }
        let digits = name.dropFirst(5)
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits)
    }

    /// The last path component.
    static func basename(_ path: String) -> Substring {
        path.split(separator: "/", omittingEmptySubsequences: true).last ?? Substring(path)
    }

    /// Whether a path names an `eventN` node.
    static func isEventNode(_ path: String) -> Bool { number(basename(path)) != nil }

    /// Nodes in number order (`event2` before `event10`), which is the order the kernel made them.
    static func sorted(_ nodes: some Sequence<String>) -> [String] {
        nodes.sorted { (number(basename($0)) ?? Int.max, $0) < (number(basename($1)) ?? Int.max, $1) }
    }
}
