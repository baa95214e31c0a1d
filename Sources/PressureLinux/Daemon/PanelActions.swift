import Glibc
import PressureCommandLine
import PressureCore

/// The action devices of the panels that have actions (`docs/actions.md`): a pointer where some action
/// clicks, a keyboard where some presses keys (``ActionDevice``), made when the panel opens (and on a
/// reload that gives it actions), destroyed when it goes or its actions do; and the fired actions
/// written to them. A panel whose devices uinput refuses (no write access to `/dev/uinput`) keeps its
/// actions' decisions (the touch is still taken) and says once why nothing is clicked. The daemon's loop
/// owns it.
final class PanelActions {
    /// Makes a panel's `kind` device: ``ActionDevice`` through uinput in the daemon; a recorder in tests.
    typealias Maker = (_ kind: ActionDeviceKind, _ panelName: String, _ panelNode: String, _ keys: [UInt16])
        throws(SystemError) -> any ActionOutput

    private struct Panel {
        var name: String
        var node: String
        var pointer: (any ActionOutput)?
        var keyboard: (any ActionOutput)?
        /// The keys the keyboard was made with.
        var keys: [UInt16] = []
    }

    /// A click's button, written a repaint after its pointer motion (``FiredAction/pressDelay``).
    private struct Pending {
        var device: Int
        var due: Int64
        var events: [InputEvent]
    }

    private var panels: [Int: Panel] = [:]
    private var pending: [Pending] = []
    private let maker: Maker

    init(maker: @escaping Maker = { kind, name, node, keys throws(SystemError) in
        try ActionDevice(kind, panelName: name, panelNode: node, keys: keys)
    }) {
        self.maker = maker
    }

    /// The panel `id` (named `name`, at `node`) has `actions` now: its devices are made or destroyed to fit.
    func update(_ id: Int, name: String, node: String, actions: DeviceActions) {
        var panel = panels[id] ?? Panel(name: name, node: node)
        let keys = Self.keys(of: actions)
        if actions.usesPointer, panel.pointer == nil {
            panel.pointer = make(.pointer, panel, keys: [])
        } else if !actions.usesPointer, let old = panel.pointer {
            old.close()
            panel.pointer = nil
        }
        // A keyboard lacking a key a reload binds is made again with it.
        if let old = panel.keyboard, !actions.usesKeyboard || !Set(keys).isSubset(of: panel.keys) {
            old.close()
            panel.keyboard = nil
        }
        if actions.usesKeyboard, panel.keyboard == nil {
            panel.keyboard = make(.keyboard, panel, keys: keys)
            panel.keys = keys
        }
        panels[id] = panel.pointer == nil && panel.keyboard == nil && actions.isEmpty ? nil : panel
    }

    /// The panel went: its devices go with it.
    func end(_ id: Int) {
        pending.removeAll { $0.device == id }
        guard let panel = panels.removeValue(forKey: id) else { return }
        panel.pointer?.close()
        panel.keyboard?.close()
    }

    /// Writes each fired action to its panel's device at `now` (the monotonic clock, µs): keys at once; a
    /// click's pointer motion at once and its button ``FiredAction/pressDelay`` later (``writeDue(now:)``).
    func perform(_ fired: [FiredAction], now: Int64) {
        for f in fired {
            guard let device = device(for: f) else { continue }
            let approach = f.approach
            if approach.isEmpty {
                device.write(f.press)
            } else {
                device.write(approach)
                pending.append(Pending(device: f.device, due: now + FiredAction.pressDelay, events: f.press))
            }
        }
    }

    /// When the next click's button is due (the loop's timer), if one is waiting.
    var nextDue: Int64? { pending.isEmpty ? nil : pending.lazy.map(\.due).min() }

    /// Writes the buttons due by `now`, in the order their clicks fired.
    func writeDue(now: Int64) {
        guard pending.contains(where: { $0.due <= now }) else { return }
        for p in pending where p.due <= now { panels[p.device]?.pointer?.write(p.events) }
        pending.removeAll { $0.due <= now }
    }

    private func device(for f: FiredAction) -> (any ActionOutput)? {
        guard let panel = panels[f.device] else { return nil }
        return f.action.usesPointer ? panel.pointer : f.action.usesKeyboard ? panel.keyboard : nil
    }

    /// Every key code the key actions press.
    private static func keys(of actions: DeviceActions) -> [UInt16] {
        var keys: [UInt16] = []
        for a in actions.actions {
            if case .keys(let k) = a.does { keys += k.codes.filter { !keys.contains($0) } }
        }
        return keys
    }

    private func make(_ kind: ActionDeviceKind, _ panel: Panel, keys: [UInt16]) -> (any ActionOutput)? {
        do {
            let device = try maker(kind, panel.name, panel.node, keys)
            Log.info("\(panel.node): actions \(kind == .pointer ? "click" : "press keys") through \(device.node), \"\(kind.name(forPanel: panel.name))\"")
            return device
        } catch {
            Log.warning("\(panel.node): actions decided but not performed: no action \(kind): \(error) (write access to /dev/uinput: pressurectl filter enable)")
            return nil
        }
    }
}

@available(*, unavailable, message: "PanelActions belongs to the daemon's loop")
extension PanelActions: Sendable {}

/// What an action device is to ``PanelActions``: written, closed, and named in the log.
protocol ActionOutput: AnyObject {
    var node: String { get }
    func write(_ events: [InputEvent])
    func close()
}

extension ActionDevice: ActionOutput {}
