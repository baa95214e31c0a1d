import Glibc
import PressureCore

/// A haptic device in use: one effect per gesture uploaded at open, each the first kind of the fallback
/// order (``HapticEffectKind/candidates(preferring:on:)``) the driver accepts; on a gesture only the play
/// event is written.
public final class HapticDevice {
    public let port: any ForceFeedbackPort
    public let support: HapticSupport
    /// By ``HapticGesture/index``: the kind uploaded and the kernel's id, or nil (no effect configured, or
    /// none the device accepts).
    public private(set) var effects: [(kind: HapticEffectKind, id: Int16)?]
    /// What was chosen and refused at open, one line a gesture, for the log and `pressurectl haptics`.
    public private(set) var choices: [String] = []

    /// Reads what the device supports and uploads the effects of `settings`. A driver that refuses a kind
    /// (`EINVAL`, `EOPNOTSUPP`) gets the next; one whose slots are full (`ENOSPC`) plays nothing more;
    /// any other failure (the device went) is thrown.
    public init(port: any ForceFeedbackPort, settings: HapticSettings) throws(SystemError) {
        self.port = port
        support = try port.support()
        effects = Array(repeating: nil, count: HapticGesture.allCases.count)
        for gesture in HapticGesture.allCases {
            guard let effect = settings.effect(gesture) else {
                choices.append("\(gesture.rawValue): off")
                continue
            }
            var refused: [String] = []
            for kind in HapticEffectKind.candidates(preferring: effect.kind, on: support) {
                do throws(SystemError) {
                    let id = try port.upload(kind, effect)
                    effects[gesture.index] = (kind, id)
                    break
                } catch where error.errno == EINVAL || error.errno == EOPNOTSUPP || error.errno == ENOSPC {
                    refused.append("\(kind.rawValue) refused (\(String(cString: strerror(error.errno))))")
                    if error.errno == ENOSPC { break }
                }
            }
            let chosen = effects[gesture.index].map {
                "\($0.kind.rawValue) \(DecimalText.fixed(effect.strength, 2)) \(effect.durationMilliseconds) ms"
            } ?? "nothing it plays"
            choices.append("\(gesture.rawValue): " + (refused + [chosen]).joined(separator: ", "))
        }
    }

    /// Plays `gesture`'s effect; false when it has none here.
    @discardableResult
    public func play(_ gesture: HapticGesture) throws(SystemError) -> Bool {
        guard let e = effects[gesture.index] else { return false }
        try port.play(e.id)
        return true
    }

    public func close() { port.close() }
}
