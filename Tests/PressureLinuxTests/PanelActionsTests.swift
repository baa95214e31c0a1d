import Glibc
import XCTest

@testable import PressureCore
@testable import PressureLinux

/// A panel's action devices in the daemon's devices handler (``PanelActions``), with recorders in place of
/// uinput: which are made for which actions, remade or destroyed on a reload, and what each is written.
final class PanelActionsTests: XCTestCase {
    final class Recorder: ActionOutput {
        let kind: ActionDeviceKind
        let keys: [UInt16]
        var node: String { "/dev/input/event-\(kind)" }
        var written: [[InputEvent]] = []
        var closed = false
        init(_ kind: ActionDeviceKind, _ keys: [UInt16]) {
            self.kind = kind
            self.keys = keys
        }
        func write(_ events: [InputEvent]) { written.append(events) }
        func close() { closed = true }
    }

    var made: [Recorder] = []
    var refuse = false

    func panels() -> PanelActions {
        PanelActions { kind, _, _, keys throws(SystemError) in
            if self.refuse { throw SystemError(call: "open", subject: "/dev/uinput", errno: EACCES) }
            let r = Recorder(kind, keys)
            self.made.append(r)
            return r
        }
    }

    func actions(_ text: String) throws -> DeviceActions {
        DeviceActions.resolve(
            for: DeviceDescription(name: "P"), kind: .touchscreen, in: try Configuration.parse(text, file: "a.conf"))
    }

    func fired(_ action: TouchAction, device: Int = 1) -> FiredAction {
        FiredAction(device: device, contact: 1, action: action, x: 0.5, y: 0.5, time: Timestamp(microseconds: 0))
    }

    func testEachPanelGetsTheDevicesItsActionsUseAndTheirEvents() throws {
        let p = panels()
        p.update(1, name: "P", node: "/dev/input/event4", actions: try actions("[action]\nGesture = pop\nDoes = rightClick\n"))
        XCTAssertEqual(made.map(\.kind), [.pointer], "no key action: no keyboard")
        p.update(2, name: "Q", node: "/dev/input/event5", actions: DeviceActions())
        XCTAssertEqual(made.count, 1, "no action: no device")
        p.perform([fired(.click(.right)), fired(.click(.middle), device: 2)], now: 1_000)
        XCTAssertEqual(made[0].written, [fired(.click(.right)).approach], "the other panel has no pointer")
        XCTAssertEqual(p.nextDue, 1_000 + FiredAction.pressDelay, "the button a repaint later")
        p.writeDue(now: 1_000 + FiredAction.pressDelay - 1)
        XCTAssertEqual(made[0].written.count, 1, "not yet")
        p.writeDue(now: 1_000 + FiredAction.pressDelay)
        XCTAssertEqual(made[0].written, [fired(.click(.right)).approach, fired(.click(.right)).press])
        XCTAssertEqual(made[0].written.flatMap { $0 }, fired(.click(.right)).events)
        XCTAssertNil(p.nextDue, "nothing waits")
    }

    /// Keys go at once; a click whose panel goes before its button is due writes nothing more.
    func testKeysGoAtOnceAndAGonePanelsButtonIsDropped() throws {
        let p = panels()
        p.update(1, name: "P", node: "n", actions: try actions(
            "[action]\nGesture = pop\nDoes = key:Ctrl+C\n[action]\nGesture = longPress\nDoes = rightClick\n"))
        let keyboard = try XCTUnwrap(made.first { $0.kind == .keyboard })
        let pointer = try XCTUnwrap(made.first { $0.kind == .pointer })
        p.perform([fired(.keys(try KeyCombination(parsing: "Ctrl+C"))), fired(.click(.right))], now: 0)
        XCTAssertEqual(keyboard.written.count, 1, "keys at once")
        XCTAssertEqual(pointer.written.count, 1, "the motion only")
        p.end(1)
        XCTAssertNil(p.nextDue)
        p.writeDue(now: FiredAction.pressDelay)
        XCTAssertEqual(pointer.written.count, 1)
    }

    func testAReloadMakesAndDestroysToFitAndRemakesAKeyboardForANewKey() throws {
        let p = panels()
        p.update(1, name: "P", node: "n", actions: try actions("[action]\nGesture = pop\nDoes = key:Ctrl+C\n"))
        XCTAssertEqual(made.map(\.kind), [.keyboard])
        XCTAssertEqual(made[0].keys, [0x1d, 0x2e])
        p.update(1, name: "P", node: "n", actions: try actions("[action]\nGesture = pop\nDoes = key:C\n[action]\nGesture = longPress\nDoes = middleClick\n"))
        XCTAssertEqual(made.map(\.kind), [.keyboard, .pointer], "the keyboard has C already: kept")
        p.update(1, name: "P", node: "n", actions: try actions("[action]\nGesture = pop\nDoes = key:KEY_MACRO1\n"))
        XCTAssertTrue(made[1].closed, "no click action now: the pointer goes")
        XCTAssertTrue(made[0].closed, "a key it lacks: the keyboard is made again")
        XCTAssertEqual(made.map(\.kind), [.keyboard, .pointer, .keyboard])
        XCTAssertEqual(made[2].keys, [0x290])
        p.perform([fired(.keys(try KeyCombination(parsing: "Macro1")))], now: 0)
        XCTAssertEqual(made[2].written.count, 1)
        p.end(1)
        XCTAssertTrue(made[2].closed, "the panel went")
    }

    func testWithoutUinputNothingIsWrittenAndNothingFails() throws {
        refuse = true
        let p = panels()
        p.update(1, name: "P", node: "n", actions: try actions("[action]\nGesture = pop\nDoes = rightClick\n"))
        p.perform([fired(.click(.right))], now: 0)
        XCTAssertTrue(made.isEmpty)
        refuse = false
        p.update(1, name: "P", node: "n", actions: try actions("[action]\nGesture = pop\nDoes = rightClick\n"))
        XCTAssertEqual(made.map(\.kind), [.pointer], "tried again on a reload")
    }
}
