/// An `[action]` section (`docs/actions.md`): what a gesture does for apps that know nothing of pressured,
/// on the touchscreens its `Match*` keys match (every one without them), where it is on the screen.
///
/// ```
/// [action]
/// MatchName = *FlatFrog*
/// Gesture = longPress
/// Does = rightClick
/// Area = 1920x1000+0+80
/// ```
/// `Gesture` and `Does` are required. Sections apply in merge order: for a touch and a gesture, the last
/// section whose match and area hold it says what the gesture does (``DeviceActions``).
public struct ActionSection: Hashable, Sendable {
    /// The section's title.
    public static let title = "action"

    /// The keys the section accepts.
    public enum Key {
        public static let gesture = "Gesture"
        public static let does = "Does"
        public static let area = "Area"
        public static let all = [
            DeviceSection.Key.matchName, DeviceSection.Key.matchVendor, DeviceSection.Key.matchProduct,
            DeviceSection.Key.matchBus, gesture, does, area,
        ]
    }

    public var file: String
    /// Line of the `[action]` header.
    public var line: Int
    /// Which devices; empty: every touchscreen.
    public var match = DeviceMatch()
    public var gesture: ActionGesture?
    public var does: TouchAction?
    /// Where on the screen; empty: everywhere.
    public var areas: [ScreenArea] = []
    /// The line of every key given, by key.
    public var keyLines: [String: Int] = [:]

    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    /// `[action] file:line` of the section's header: where `pressurectl devices` says an action comes from.
    public var source: String { "[\(Self.title)] \(file):\(line)" }
}
