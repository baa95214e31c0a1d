/// An action that fired, as the loop performs it: which device's touch, what it does, where the finger
/// was, and the events it writes (``events``), pure so a test reads them without uinput.
public struct FiredAction: Hashable, Sendable {
    /// The absolute pointer's range on both axes, as QEMU's USB tablet has it: the compositor maps it onto
    /// the output (or the layout) it maps the pointer to, so the range stands for the screen's width and
    /// height whatever their pixels.
    public static let pointerRange = AbsInfo(minimum: 0, maximum: 32767)

    /// The device whose touch fired it, and the touch.
    public var device: Int
    public var contact: UInt64
    public var action: TouchAction
    /// Where the finger was on the gesture's frame, as a fraction of the screen (0…1, ``ScreenGeometry/normalized(x:y:xAxis:yAxis:)``).
    public var x: Double
    public var y: Double
    /// The gesture's frame.
    public var time: Timestamp

    public init(device: Int, contact: UInt64, action: TouchAction, x: Double, y: Double, time: Timestamp) {
        self.device = device
        self.contact = contact
        self.action = action
        self.x = x
        self.y = y
        self.time = time
    }

    /// The pointer's value for a fraction of the screen: libinput and X map a value `v` of a range
    /// `0…max` to `v × size / (max + 1)`, so `fraction × (max + 1)`, rounded down, lands on the finger's
    /// pixel; clamped to the range (a calibrated finger can sit past an edge).
    public static func pointerValue(_ fraction: Double) -> Int32 {
        let top = pointerRange.maximum
        guard fraction.isFinite else { return 0 }
        let v = (fraction * (Double(top) + 1)).rounded(.down)
        return v <= 0 ? 0 : v >= Double(top) ? top : Int32(v)
    }

    /// What the action writes, in order: ``approach`` then ``press``. A click: the pointer moves to the
    /// finger in a frame of its own, then the button goes down in a frame and up in the next. Keys: each
    /// goes down in the order written, then up in reverse, a frame each, as a hand presses a shortcut.
    /// Nothing for `none`.
    public var events: [InputEvent] { approach + press }

    /// A click's pointer motion to the finger (empty for keys): written first, and ``press`` only
    /// ``pressDelay`` later, because a compositor may choose the window under the pointer only when it
    /// next repaints (Weston does: a button in the same write as the motion that brought the pointer over
    /// a window reached no window, in the VM under Weston 10 and 14).
    public var approach: [InputEvent] {
        guard case .click = action else { return [] }
        return [
            InputEvent(time: time, type: EventType.abs, code: AbsCode.x, value: Self.pointerValue(x)),
            InputEvent(time: time, type: EventType.abs, code: AbsCode.y, value: Self.pointerValue(y)),
            InputEvent(time: time, type: EventType.syn, code: SynCode.report, value: 0),
        ]
    }

    /// How long after ``approach`` the ``press`` goes, in microseconds: a repaint of a 60 Hz output
    /// (16.7 ms) and room for the compositor's own work.
    public static let pressDelay: Int64 = 30_000

    /// The button's down and up frames, or the keys' frames.
    public var press: [InputEvent] {
        var out: [InputEvent] = []
        func frame(_ type: UInt16, _ code: UInt16, _ value: Int32) {
            out.append(InputEvent(time: time, type: type, code: code, value: value))
        }
        func sync() { frame(EventType.syn, SynCode.report, 0) }
        switch action {
        case .click(let button):
            frame(EventType.key, button.code, 1)
            sync()
            frame(EventType.key, button.code, 0)
            sync()
        case .keys(let keys):
            for code in keys.codes {
                frame(EventType.key, code, 1)
                sync()
            }
            for code in keys.codes.reversed() {
                frame(EventType.key, code, 0)
                sync()
            }
        case .none:
            break
        }
        return out
    }
}
