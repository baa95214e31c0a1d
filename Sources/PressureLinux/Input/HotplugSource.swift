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
