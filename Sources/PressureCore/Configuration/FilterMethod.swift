/// How filter mode keeps a touch a gesture took from the app (`FilterMethod`, `docs/filter.md`).
public enum FilterMethod: String, Hashable, Sendable, CaseIterable {
    /// A touch that begins where a gesture could take it is held from the clone until pressured knows what
    /// it is (``CloneRewriter/Mode/hold``): needs nothing of the compositor, so it is the default.
    case hold
    /// The taken touch becomes `MT_TOOL_PALM` on the clone, which libinput turns into `TOUCH_CANCEL`
    /// (``CloneRewriter/Mode/cancel``): only as good as the compositor's handling of the cancel.
    case cancel

    /// Where no configuration says: hold, the one way that works under labwc, cage, Weston and X11.
    public static let `default` = FilterMethod.hold

    /// The rewriter's mode for it.
    public var cloneMode: CloneRewriter.Mode {
        switch self {
        case .hold: return .hold
        case .cancel: return .cancel
        }
    }
}
