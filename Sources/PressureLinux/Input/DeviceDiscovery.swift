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
