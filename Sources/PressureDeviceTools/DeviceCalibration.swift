import PressureCore
import PressureLinux

/// The calibration a device gets: from the configuration where sections match, else the documented
/// defaults; nil where the device has no pressure.
public enum DeviceCalibration {
    public static func resolve(
        device: TouchDevice, configuration: Configuration?, udev: UdevDeviceProperties = UdevDeviceProperties()
    ) throws(ConfigurationLoadError) -> ResolvedCalibration? {
        guard device.hasPressure, let axis = device.pressureAxis else { return nil }
        let config = configuration ?? Configuration()
        do {
            return try config.calibration(for: device.description, pressureAxis: axis, udev: udev)
        } catch { throw .configuration(error) }
    }
}
