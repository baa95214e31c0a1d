/// What an action does (`Does` of an `[action]` section): a click of the pointer where the finger is, a
/// key or key combination, or nothing (a later section taking an earlier one's gesture back).
public enum TouchAction: Hashable, Sendable, CustomStringConvertible {
    /// A pointer button.
    public enum Button: String, Hashable, Sendable, CaseIterable {
        case right
        case middle

        /// Its `BTN_*` code.
        public var code: UInt16 {
            switch self {
            case .right: return KeyCode.btnRight
            case .middle: return KeyCode.btnMiddle
            }
        }
    }

    /// The pointer moves to the finger and clicks `Button` there.
    case click(Button)
    /// The keys go down in order and up in reverse, on the keyboard's focus.
    case keys(KeyCombination)
    /// No action: the gesture is the app's, as without any section.
    case none

    /// `Does`'s forms, for messages.
    public static let expected =
        "rightClick, middleClick, key:NAME or key:NAME+NAME… (kernel KEY_* names, Ctrl, Shift, Alt, Super), or none"

    /// Reads `rightClick`, `middleClick`, `key:Ctrl+C`, `none` (words in any case).
    public init(parsing text: String) throws(ActionParseProblem) {
        let lower = text.lowercased()
        switch lower {
        case "rightclick": self = .click(.right)
        case "middleclick": self = .click(.middle)
        case "none": self = .none
        default:
            guard lower.hasPrefix("key:") else { throw .notAnAction }
            do throws(KeyCombination.Problem) {
                self = .keys(try KeyCombination(parsing: String(text.dropFirst(4))))
            } catch {
                throw .keys(error)
            }
        }
    }

    /// What it does, as written in the configuration (`rightClick`, `key:Ctrl+C`, `none`).
    public var description: String {
        switch self {
        case .click(let b): return b.rawValue + "Click"
        case .keys(let k): return "key:\(k)"
        case .none: return "none"
        }
    }

    /// Whether it needs the pointer device (else the keyboard, or nothing).
    public var usesPointer: Bool { if case .click = self { true } else { false } }
    /// Whether it needs the keyboard device.
    public var usesKeyboard: Bool { if case .keys = self { true } else { false } }
}

/// Why a `Does` value could not be read.
public enum ActionParseProblem: Error, Hashable, Sendable {
    /// Not one of the forms.
    case notAnAction
    /// `key:` with a combination that cannot be pressed.
    case keys(KeyCombination.Problem)
}
