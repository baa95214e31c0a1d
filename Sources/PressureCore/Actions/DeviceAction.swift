/// One action in force for a device: what one `[action]` section binds to a gesture, and where.
public struct DeviceAction: Hashable, Sendable, CustomStringConvertible {
    public var gesture: ActionGesture
    public var does: TouchAction
    /// Where a touch must begin for it; empty: anywhere on the screen.
    public var areas: [ScreenArea]
    /// `[action] file:line`.
    public var source: String

    public init(gesture: ActionGesture, does: TouchAction, areas: [ScreenArea] = [], source: String = "") {
        self.gesture = gesture
        self.does = does
        self.areas = areas
        self.source = source
    }

    /// Whether a touch that begins at the screen point (`screenX`, `screenY`) is in its areas.
    public func covers(x: Double, y: Double) -> Bool {
        areas.isEmpty || areas.contains { $0.contains(x: x, y: y) }
    }

    /// `longPress → rightClick` (with its areas, where it has any).
    public var description: String {
        "\(gesture) → \(does)" + (areas.isEmpty ? "" : " in " + areas.map(\.description).joined(separator: " "))
    }
}

/// What the actions of a touch that began hold for it: for each gesture, the one action it fires, if any.
public struct ArmedActions: Hashable, Sendable {
    private var byGesture: [DeviceAction?] = [nil, nil, nil]

    public init() {}

    public subscript(_ g: ActionGesture) -> DeviceAction? {
        get { byGesture[Self.index(g)] }
        set { byGesture[Self.index(g)] = newValue }
    }

    /// No gesture of the touch has an action.
    public var isEmpty: Bool { byGesture.allSatisfy { $0 == nil } }

    /// The gestures that have an action, in the order they can come (peek, pop, long press).
    public var gestures: [ActionGesture] { ActionGesture.allCases.filter { self[$0] != nil } }

    private static func index(_ g: ActionGesture) -> Int {
        switch g {
        case .peek: return 0
        case .pop: return 1
        case .longPress: return 2
        }
    }
}

/// The actions in force for one device (``resolve(for:in:)``), and what they hold for a touch as it begins.
public struct DeviceActions: Hashable, Sendable {
    /// In merge order.
    public var actions: [DeviceAction]

    public init(_ actions: [DeviceAction] = []) { self.actions = actions }

    public var isEmpty: Bool { actions.isEmpty }
    /// Whether some action clicks: the device gets a pointer.
    public var usesPointer: Bool { actions.contains { $0.does.usesPointer } }
    /// Whether some action presses keys: the device gets a keyboard.
    public var usesKeyboard: Bool { actions.contains { $0.does.usesKeyboard } }

    /// The `[action]` sections of `configuration` that match `device`, in merge order. Only touchscreens
    /// have actions: a touchpad's touches are on no screen point, and it moves a pointer already.
    public static func resolve(for device: DeviceDescription, kind: DeviceKind, in configuration: Configuration)
        -> DeviceActions
    {
        guard kind == .touchscreen else { return DeviceActions() }
        return DeviceActions(
            configuration.actionSections.compactMap { s in
                guard s.match.matches(device), let g = s.gesture, let does = s.does else { return nil }
                return DeviceAction(gesture: g, does: does, areas: s.areas, source: s.source)
            })
    }

    /// What a touch that begins at the screen point (`x`, `y`) may fire: for each gesture the last action
    /// (in merge order) whose areas hold the point, unless that says `none`. Nothing for a touch that began
    /// in an app's region (the app's, never an action's); no force gesture where `force` is false (force
    /// is off or unavailable on the device: the hold stays).
    public func armed(x: Double, y: Double, inRegion: Bool, force: Bool) -> ArmedActions {
        var armed = ArmedActions()
        guard !inRegion, !actions.isEmpty else { return armed }
        for g in ActionGesture.allCases where force || !g.needsForce {
            guard let a = actions.last(where: { $0.gesture == g && $0.covers(x: x, y: y) }), a.does != .none else {
                continue
            }
            armed[g] = a
        }
        return armed
    }

    /// Whether an action would take a touch that begins at (`x`, `y`): one of its gestures has an action,
    /// and every action takes the touch it fires for. What filter mode's hold asks as a touch begins.
    public func wouldTake(x: Double, y: Double, inRegion: Bool, force: Bool) -> Bool {
        !armed(x: x, y: y, inRegion: inRegion, force: force).isEmpty
    }
}
