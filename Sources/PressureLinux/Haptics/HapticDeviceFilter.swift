import PressureCore

/// Which input nodes are haptic devices the daemon plays on, as udev knows them: `PRESSURED_HAPTIC=1`
/// from the rules or hwdb (`0` excludes a node); else a node with force feedback (its `capabilities/ff`
/// attribute) that is no touch device and no joystick (a gamepad's rumble is a game's); a touch device
/// only with `FF_HAPTIC` (a haptic pressure pad, Linux 6.18).
public enum HapticDeviceFilter {
    public static let property = "PRESSURED_HAPTIC"

    public static func isHaptic(properties: [String: String], ffCapabilities: String?) -> Bool {
        switch properties[property] {
        case "1": return true
        case "0": return false
        default: break
        }
        let ff = ffCapabilities.map(codes(inSysfsBitmap:)) ?? []
        if ff.isEmpty || properties["ID_INPUT_JOYSTICK"] == "1" { return false }
        if TouchDeviceFilter.isTouch(properties: properties) { return ff.contains(HapticEffectKind.Bit.haptic) }
        return true
    }

    /// The codes set in a sysfs capability bitmap (`capabilities/ff`): hexadecimal words separated by
    /// spaces, the most significant first, each as wide as the kernel's `long` (64 bits here).
    public static func codes(inSysfsBitmap text: String) -> [UInt16] {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).reversed()
        var codes: [UInt16] = []
        for (i, word) in words.enumerated() {
            guard let w = UInt64(word, radix: 16) else { return [] }
            for bit in 0..<64 where w & (1 << UInt64(bit)) != 0 { codes.append(UInt16(i * 64 + bit)) }
        }
        return codes
    }
}
