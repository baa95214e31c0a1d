import CLibevdev
import PressureCore

/// A device's description (``DeviceDescription``) read from libevdev, and a libevdev made from one: what
/// ``EvdevDevice`` says of the panel it opens, and what filter mode's one-slot clone is made from.
public enum EvdevDescription {
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

    /// The inverse of ``description(of:)``: a libevdev made with `libevdev_new()` that declares what `d`
    /// says (name, identity, properties, codes, axis ranges), for a uinput device to be made from. Force
    /// feedback and key repeat are left out: a clone that declared them would have to answer the effects
    /// and repeat settings its readers send, which the panel's own driver does. Nil when libevdev cannot
    /// allocate or refuses a code.
    static func libevdev(describing d: DeviceDescription) -> OpaquePointer? {
        guard let dev = libevdev_new() else { return nil }
        libevdev_set_name(dev, d.name)
        libevdev_set_id_bustype(dev, Int32(d.identity.bus))
        libevdev_set_id_vendor(dev, Int32(d.identity.vendor))
        libevdev_set_id_product(dev, Int32(d.identity.product))
        libevdev_set_id_version(dev, Int32(d.identity.version))
        var ok = true
        for p in d.properties { ok = ok && libevdev_enable_property(dev, UInt32(p)) == 0 }
        for (type, codes) in d.codes where type != UInt16(EV_FF) && type != UInt16(EV_REP) {
            ok = ok && libevdev_enable_event_type(dev, UInt32(type)) == 0
            for code in codes {
                if type == UInt16(EV_ABS) {
                    let a = d.absInfo[code] ?? AbsInfo(minimum: 0, maximum: 0)
                    var info = input_absinfo(
                        value: 0, minimum: a.minimum, maximum: a.maximum, fuzz: a.fuzz, flat: a.flat,
                        resolution: a.resolution)
                    ok = ok && libevdev_enable_event_code(dev, UInt32(type), UInt32(code), &info) == 0
                } else {
                    ok = ok && libevdev_enable_event_code(dev, UInt32(type), UInt32(code), nil) == 0
                }
            }
        }
        guard ok else {
            libevdev_free(dev)
            return nil
        }
        return dev
    }
}
