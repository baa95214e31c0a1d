import Glibc
@testable import PressureCore
@testable import PressureLinux

/// A force-feedback device scripted as a driver would behave: the kinds it refuses, its slots, a play
/// that fails once it is unplugged.
final class ScriptedForceFeedback: ForceFeedbackPort {
    let node: String
    let name: String
    let bits: [UInt16]
    var slots: Int
    /// Kinds whose upload fails with EINVAL although the bits are there (DA7280 and CS40L50 take only
    /// custom waveforms).
    var refuses: Set<HapticEffectKind> = []
    var uploads: [(HapticEffectKind, HapticEffect)] = []
    var played: [Int16] = []
    var failsWith: Int32? = nil
    var closed = false

    init(node: String = "/dev/input/event9", name: String = "vibrator", bits: [UInt16], slots: Int = 16) {
        self.node = node
        self.name = name
        self.bits = bits
        self.slots = slots
    }

    func support() throws(SystemError) -> HapticSupport { HapticSupport(bits: bits, effectSlots: slots) }

    func upload(_ kind: HapticEffectKind, _ effect: HapticEffect) throws(SystemError) -> Int16 {
        if refuses.contains(kind) { throw SystemError(call: "ioctl(EVIOCSFF)", subject: node, errno: EINVAL) }
        guard uploads.count < slots else { throw SystemError(call: "ioctl(EVIOCSFF)", subject: node, errno: ENOSPC) }
        uploads.append((kind, effect))
        return Int16(uploads.count - 1)
    }

    func play(_ id: Int16) throws(SystemError) {
        if let e = failsWith { throw SystemError(call: "write(EV_FF)", subject: node, errno: e) }
        played.append(id)
    }

    func close() { closed = true }
}
