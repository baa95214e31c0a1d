/// A device node that appeared or went away.
public enum Hotplug: Hashable, Sendable {
    case added(node: String)
    case removed(node: String)
}
