import Glibc

/// Why an input device node could not be opened, worded for the person at the terminal: what went wrong
/// and what to do next (which group to join, which command lists the devices).
public struct InputDeviceError: Error, CustomStringConvertible {
    public var underlying: SystemError

    public var node: String { underlying.subject }

    public var description: String { underlying.description + "; " + hint }

    /// What to do about it.
    public var hint: String {
        switch underlying.errno {
        case EACCES, EPERM:
            return "reading input devices needs the `input` group: `sudo usermod -aG input $USER` and log in again, or run as root"
        case ENOENT:
            return "no such device node: `pressurectl devices` lists the touch devices"
        case ENOTTY, EINVAL:
            return "not an input device node (expected /dev/input/eventN): `pressurectl devices` lists the touch devices"
        case ENODEV, ENXIO:
            return "the device is gone (unplugged?): `pressurectl devices` lists the touch devices"
        case EISDIR:
            return "a directory, not a device node: `pressurectl devices` lists the touch devices"
        default:
            return "`pressurectl devices` lists the touch devices"
        }
    }
}
