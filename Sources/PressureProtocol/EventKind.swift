/// The event kinds a subscription can ask for (`subscribe`'s `events`).
public enum EventKind: String, Hashable, Sendable, CaseIterable {
    case gestures, touches, devices
}
