import XCTest

@testable import PressureCore

/// `[action]` sections: every key read, several sections merged, and errors naming file and line.
final class ConfigurationActionTests: XCTestCase {
    func parse(_ text: String, file: String = "a.conf") throws -> Configuration {
        try Configuration.parse(text, file: file)
    }

    func error(_ text: String) -> ConfigurationError? {
        do throws(ConfigurationError) {
            _ = try Configuration.parse(text, file: "a.conf")
            return nil
        } catch { return error }
    }

    let flatfrog = DeviceDescription(name: "FlatFrog 3200", identity: DeviceIdentity(bus: 3, vendor: 0x25b5, product: 2))

    func testNoSectionNoActions() throws {
        let c = try parse("[pressured]\nForceTouch = on\n")
        XCTAssertTrue(c.actionSections.isEmpty)
        XCTAssertTrue(DeviceActions.resolve(for: flatfrog, kind: .touchscreen, in: c).isEmpty)
    }

    func testEveryKeyIsRead() throws {
        let c = try parse("""
            [action]            # a firm press is a right click
            MatchName = *FlatFrog*
            MatchVendor = 0x25b5
            MatchProduct = 2
            MatchBus = usb
            Gesture = POP
            Does = rightClick
            Area = 960x1080+0+0 960x540+960+0
            """)
        XCTAssertEqual(c.actionSections.count, 1)
        let s = c.actionSections[0]
        XCTAssertEqual(s.gesture, .pop)
        XCTAssertEqual(s.does, .click(.right))
        XCTAssertEqual(s.areas, [ScreenArea(x: 0, y: 0, width: 960, height: 1080), ScreenArea(x: 960, y: 0, width: 960, height: 540)])
        XCTAssertEqual(s.source, "[action] a.conf:1")
        XCTAssertTrue(s.match.matches(flatfrog))
        XCTAssertEqual(s.areas.map(\.description), ["960x1080+0+0", "960x540+960+0"])
    }

    func testDoesForms() throws {
        for (text, expected) in [
            ("middleclick", "middleClick"), ("RightClick", "rightClick"), ("key:Menu", "key:Menu"),
            ("key: Ctrl + c", "key:Ctrl+c"), ("key:KEY_COMPOSE", "key:KEY_COMPOSE"), ("none", "none"),
        ] {
            let c = try parse("[action]\nGesture = longPress\nDoes = \(text)\n")
            XCTAssertEqual(c.actionSections[0].does?.description, expected, text)
        }
        let c = try parse("[action]\nGesture = longpress\nDoes = key:Ctrl+Shift+T\n")
        guard case .keys(let k)? = c.actionSections[0].does else { return XCTFail("not keys") }
        XCTAssertEqual(k.codes, [0x1d, 0x2a, 0x14])
        XCTAssertEqual(try KeyCombination(parsing: "menu").codes, [0x8b])
        XCTAssertEqual(try KeyCombination(parsing: "Super+f10").codes, [0x7d, 0x44])
    }

    func testErrorsNameTheLine() {
        let cases: [(String, Int, ConfigurationError.Reason)] = [
            ("[action]\nGesture = tap\nDoes = rightClick\n", 2,
             .invalidChoice(key: "Gesture", value: "tap", expected: "one of peek, pop, longPress")),
            ("[action]\nGesture = pop\nDoes = leftClick\n", 3,
             .invalidChoice(key: "Does", value: "leftClick", expected: TouchAction.expected)),
            ("[action]\nGesture = pop\nDoes = key:Ctrl+Banana\n", 3,
             .invalidKeys(key: "Does", value: "key:Ctrl+Banana", problem: .unknownName("Banana"))),
            ("[action]\nGesture = pop\nDoes = key:Ctrl+\n", 3,
             .invalidKeys(key: "Does", value: "key:Ctrl+", problem: .emptyName)),
            ("[action]\nGesture = pop\nDoes = key:c+C\n", 3,
             .invalidKeys(key: "Does", value: "key:c+C", problem: .repeated("C"))),
            ("[action]\nGesture = pop\nDoes = key:a+b+c+d+e+f+g\n", 3,
             .invalidKeys(key: "Does", value: "key:a+b+c+d+e+f+g", problem: .tooMany(7))),
            ("[action]\nGesture = pop\nDoes = rightClick\nArea = 0,0 1920x1080\n", 4,
             .invalidArea(key: "Area", value: "0,0",
                          expected: "screen rectangles in pixels as WIDTHxHEIGHT+X+Y (e.g. 960x1080+960+0), separated by spaces")),
            ("[action]\nGesture = pop\nDoes = rightClick\nArea = 0x10+0+0\n", 4,
             .invalidArea(key: "Area", value: "0x10+0+0",
                          expected: "screen rectangles in pixels as WIDTHxHEIGHT+X+Y (e.g. 960x1080+960+0), separated by spaces")),
            ("[action]\nGesture = pop\nWhere = here\n", 3, .unknownActionKey(key: "Where")),
            ("\n[action]\nGesture = pop\n[pressured]\n", 2, .missingActionKey(key: "Does")),
            ("[action]\nDoes = rightClick\n", 1, .missingActionKey(key: "Gesture")),
            ("[action]\nGesture = pop\nGesture = peek\n", 3, .duplicateKey(key: "Gesture", firstLine: 2)),
            ("[action]\nMatchName = [a\nGesture = pop\n", 2,
             .malformedGlob(key: "MatchName", pattern: "[a", problem: .unterminatedSet(offset: 0))),
        ]
        for (text, line, reason) in cases {
            XCTAssertEqual(error(text), ConfigurationError(file: "a.conf", line: line, reason: reason), text)
        }
        XCTAssertEqual(
            error("[action]\nGesture = pop\nDoes = key:Ctrl+Banana\n")?.description,
            "a.conf:3: Does = key:Ctrl+Banana: no key is named 'Banana': expected a kernel KEY_* name without KEY_ "
                + "(Menu, Enter, F10, C), or Ctrl, Shift, Alt, Super")
        XCTAssertEqual(
            error("[action]\ngesture = pop\n")?.description,
            "a.conf:2: unknown key gesture in [action]: expected one of MatchName, MatchVendor, MatchProduct, "
                + "MatchBus, Gesture, Does, Area (keys are case-sensitive: did you mean Gesture?)")
    }

    func testSectionsMergeInOrderAndMatchDevices() throws {
        let shipped = try parse("""
            [action]
            Gesture = longPress
            Does = rightClick
            [action]
            MatchName = *Elo*
            Gesture = pop
            Does = middleClick
            """, file: "10-shipped.conf")
        let local = try parse("""
            [action]
            MatchVendor = 0x25b5
            Gesture = pop
            Does = key:Menu
            """, file: "local.conf")
        let c = Configuration.merged([shipped, local])
        let actions = DeviceActions.resolve(for: flatfrog, kind: .touchscreen, in: c)
        XCTAssertEqual(actions.actions.map(\.description), ["longPress → rightClick", "pop → key:Menu"])
        XCTAssertEqual(actions.actions.map(\.source), ["[action] 10-shipped.conf:1", "[action] local.conf:1"])
        XCTAssertTrue(actions.usesPointer)
        XCTAssertTrue(actions.usesKeyboard)
        XCTAssertTrue(DeviceActions.resolve(for: flatfrog, kind: .touchpad, in: c).isEmpty)
    }
}
