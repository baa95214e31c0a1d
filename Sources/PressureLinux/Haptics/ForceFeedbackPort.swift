import PressureCore

/// What the daemon does with a force-feedback node: ask what it supports, upload effects, play them. The
/// kernel's (``KernelForceFeedback``) makes the ioctls and writes; tests script one, so that a driver that
/// refuses effects or a device that fails mid-run can be shown without a kernel.
public protocol ForceFeedbackPort: AnyObject {
    var node: String { get }
    /// The device's name (`EVIOCGNAME`), for `MatchName` and log lines.
    var name: String { get }
    /// `EVIOCGBIT(EV_FF)` and `EVIOCGEFFECTS`.
    func support() throws(SystemError) -> HapticSupport
    /// `EVIOCSFF` of `effect` as `kind`; returns the kernel's id for it. `EINVAL`: the driver refuses it.
    func upload(_ kind: HapticEffectKind, _ effect: HapticEffect) throws(SystemError) -> Int16
    /// Writes the play event (`EV_FF`, code = id, value = 1).
    func play(_ id: Int16) throws(SystemError)
    /// Closes the descriptor: its uploaded effects go with it (they belong to the descriptor).
    func close()
}
