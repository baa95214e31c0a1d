import CLibevdev
import PressureCore

extension EvdevDevice {
    /// What a libevdev device says about itself, as the capture readers describe a recorded one: name,
    /// identity, properties, every supported code of every type, and the range of every absolute axis.
    ///
    /// Works on any libevdev, including one made with `libevdev_new()` and filled in by hand (which is
    /// how the tests describe hardware without a device node).
    public static func description(of dev: OpaquePointer) -> DeviceDescription {
        let name = libevdev_get_name(dev).map { String(cString: $0) } ?? ""
        let identity = DeviceIdentity(
            bus: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(dev)),
            vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(dev)),
            product: UInt16(truncatingIfNeeded: libevdev_get_id_product(dev)),
            version: UInt16(truncatingIfNeeded: libevdev_get_id_version(dev)))
        var properties = Set<UInt16>()
        for p in 0..<UInt32(INPUT_PROP_CNT) where libevdev_has_property(dev, p) != 0 {
            properties.insert(UInt16(p))
        }
        var codes: [UInt16: Set<UInt16>] = [:]
        var absInfo: [UInt16: AbsInfo] = [:]
        for type in 0..<UInt32(EV_CNT) where libevdev_has_event_type(dev, type) != 0 {
            let maximum = libevdev_event_type_get_max(type)
            guard maximum >= 0 else { continue }
            var set = Set<UInt16>()
            for code in 0...UInt32(maximum) where libevdev_has_event_code(dev, type, code) != 0 {
                set.insert(UInt16(code))
                if type == UInt32(EV_ABS), let a = libevdev_get_abs_info(dev, code)?.pointee {
                    absInfo[UInt16(code)] = AbsInfo(
                        minimum: a.minimum, maximum: a.maximum, fuzz: a.fuzz, flat: a.flat,
                        resolution: a.resolution)
                }
            }
            codes[UInt16(type)] = set
        }
        return DeviceDescription(
            name: name, identity: identity, properties: properties, codes: codes, absInfo: absInfo)
    }
}
