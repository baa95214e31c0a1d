import CLinux
import Glibc
import PressureCore

/// A force-feedback node opened read-write (`O_RDWR | O_NONBLOCK | O_CLOEXEC`): writing is how effects are
/// played. The shared gain (`FF_GAIN`) is never written: other users of the device keep theirs.
public final class KernelForceFeedback: ForceFeedbackPort {
    public let node: String
    public let name: String
    private var fd: Int32

    public init(node: String) throws(SystemError) {
        let fd = try syscall("open", node) { open(node, O_RDWR | O_NONBLOCK | O_CLOEXEC) }
        var buffer = [CChar](repeating: 0, count: 256)
        let n = buffer.withUnsafeMutableBufferPointer { pressured_device_name(fd, $0.baseAddress, 255) }
        self.node = node
        self.fd = fd
        name = n > 0 ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
    }

    deinit { close() }

    public func support() throws(SystemError) -> HapticSupport {
        var bits = [UInt8](repeating: 0, count: 16)  // FF_CNT (128) bits
        _ = try syscall("ioctl(EVIOCGBIT(EV_FF))", node) {
            bits.withUnsafeMutableBufferPointer { pressured_ff_bits(fd, $0.baseAddress, 16) }
        }
        var slots: Int32 = 0
        _ = try syscall("ioctl(EVIOCGEFFECTS)", node) { pressured_ff_slots(fd, &slots) }
        return HapticSupport(bits: KernelForceFeedback.codes(bits), effectSlots: Int(slots))
    }

    /// The codes whose bits are set in a kernel bitmap (bit n in byte n / 8).
    static func codes(_ bits: [UInt8]) -> [UInt16] {
        bits.indices.flatMap { byte in (0..<8).filter { bits[byte] & (1 << $0) != 0 }.map { UInt16(byte * 8 + $0) } }
    }

    public func upload(_ kind: HapticEffectKind, _ effect: HapticEffect) throws(SystemError) -> Int16 {
        typealias Bit = HapticEffectKind.Bit
        let (type, waveform): (UInt16, UInt16)
        switch kind {
        case .haptic: (type, waveform) = (Bit.haptic, 0)
        case .custom: (type, waveform) = (Bit.periodic, Bit.custom)
        case .rumble: (type, waveform) = (Bit.rumble, 0)
        case .periodic: (type, waveform) = (Bit.periodic, Bit.sine)
        }
        var id: Int16 = -1
        let length = UInt16(clamping: effect.durationMilliseconds)
        _ = try syscall("ioctl(EVIOCSFF \(kind.rawValue))", node) {
            pressured_ff_upload(fd, type, waveform, effect.magnitude, length, effect.hidWaveform, &id)
        }
        return id
    }

    public func play(_ id: Int16) throws(SystemError) {
        _ = try syscall("write(EV_FF)", node) { pressured_ff_play(fd, id) }
    }

    public func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }
}
