/// What one touch is to the actions (`docs/actions.md`): decided as it begins, then each gesture of it, until
/// it ends. One action a touch, the first of its gestures that has one; the touch is then taken, as a
/// region's gesture takes the touch it answers, so filter mode keeps it from the app.
///
/// | state | input | next | effect |
/// |---|---|---|---|
/// | idle | began(nothing armed) | idle | — |
/// | idle | began(armed) | armed | — |
/// | idle | gesture | idle | — |
/// | idle | ended | idle | — |
/// | armed | gesture with an action (a force one only with force on) | fired | fire the action, take the touch |
/// | armed | gesture without | armed | — |
/// | armed | ended | idle | — |
/// | armed | began | as from idle | impossible (a touch begins once) |
/// | fired | gesture | fired | — (the touch's one action fired) |
/// | fired | ended | idle | — |
/// | fired | began | as from idle | impossible |
public enum ActionTouch: Hashable, Sendable {
    /// No touch, or one no action is for (it began in an app's region, or outside every area).
    case idle
    /// Began where actions are: waiting for a gesture one of them is for.
    case armed(ArmedActions)
    /// Its action fired: the touch is taken until it lifts.
    case fired(DeviceAction)

    /// What happens to the touch.
    public enum Input: Hashable, Sendable {
        /// It began; what the device's actions hold for it (``DeviceActions/armed(x:y:inRegion:force:)``).
        case began(ArmedActions)
        /// A gesture of it fired; `force`: whether force gestures may act now (force on and available).
        case gesture(GestureKind, force: Bool)
        /// It lifted or was cancelled.
        case ended
    }

    /// What the owner does after a transition.
    public enum Effect: Hashable, Sendable {
        case nothing
        /// Perform the action and take the touch.
        case fire(DeviceAction)
        /// A pair that cannot happen; the machine went on as the input says (logged, never trapped).
        case impossible
    }

    /// The one transition function (the table above).
    public mutating func handle(_ input: Input) -> Effect {
        switch (self, input) {
        case (.idle, .began(let armed)):
            self = armed.isEmpty ? .idle : .armed(armed)
            return .nothing
        case (.armed, .began(let armed)), (.fired, .began(let armed)):
            self = armed.isEmpty ? .idle : .armed(armed)
            return .impossible
        case (.idle, .gesture), (.fired, .gesture):
            return .nothing
        case (.armed(let armed), .gesture(let kind, let force)):
            guard let g = ActionGesture(kind), force || !g.needsForce, let action = armed[g] else { return .nothing }
            self = .fired(action)
            return .fire(action)
        case (.idle, .ended), (.armed, .ended), (.fired, .ended):
            self = .idle
            return .nothing
        }
    }
}
