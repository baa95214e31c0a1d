import XCTest

@testable import PressureCore

/// What an action writes: the pointer's events for a click where the finger is, the keys of a combination.
final class FiredActionTests: XCTestCase {
    func fired(_ action: TouchAction, x: Double = 0.5, y: Double = 0.25) -> [[Int]] {
        FiredAction(device: 1, contact: 2, action: action, x: x, y: y, time: Timestamp(microseconds: 7))
            .events.map { [Int($0.type), Int($0.code), Int($0.value)] }
    }

    func testAClickMovesThePointerInAFrameOfItsOwnThenPressesAndReleases() {
        XCTAssertEqual(fired(.click(.right)), [
            [3, 0, 16384], [3, 1, 8192], [0, 0, 0],
            [1, 0x111, 1], [0, 0, 0],
            [1, 0x111, 0], [0, 0, 0],
        ])
        XCTAssertEqual(fired(.click(.middle), x: 0, y: 1).map { $0[2] }, [0, 32767, 0, 1, 0, 0, 0])
        XCTAssertEqual(fired(.click(.middle)).filter { $0[0] == 1 }.map { $0[1] }, [0x112, 0x112])
    }

    func testKeysGoDownInOrderAndUpInReverse() throws {
        XCTAssertEqual(fired(.keys(try KeyCombination(parsing: "Ctrl+Shift+T"))), [
            [1, 0x1d, 1], [0, 0, 0], [1, 0x2a, 1], [0, 0, 0], [1, 0x14, 1], [0, 0, 0],
            [1, 0x14, 0], [0, 0, 0], [1, 0x2a, 0], [0, 0, 0], [1, 0x1d, 0], [0, 0, 0],
        ])
        XCTAssertEqual(fired(.keys(try KeyCombination(parsing: "menu"))), [[1, 0x8b, 1], [0, 0, 0], [1, 0x8b, 0], [0, 0, 0]])
        XCTAssertEqual(fired(.none), [])
    }

    /// libinput maps value v of 0…32767 to v × width / 32768: the finger's pixel, on any width.
    func testThePointersValueLandsOnTheFingersPixel() {
        for width in [800.0, 1920, 3840] {
            for pixel in stride(from: 0.0, to: width, by: 37) {
                let v = Double(FiredAction.pointerValue((pixel + 0.5) / width))
                XCTAssertEqual((v * width / 32768).rounded(.down), pixel, "\(pixel) of \(width)")
            }
        }
        XCTAssertEqual(FiredAction.pointerValue(-0.2), 0)
        XCTAssertEqual(FiredAction.pointerValue(1.5), 32767)
        XCTAssertEqual(FiredAction.pointerValue(.nan), 0)
    }

    func testEveryKernelKeyNameIsKnownAndModifiersAreTheLeftKeys() {
        XCTAssertEqual(KeyNames.code(of: "KEY_ESC"), 1)
        XCTAssertEqual(KeyNames.code(of: "Esc"), 1)
        XCTAssertEqual(KeyNames.code(of: "F24"), 0xc2)
        XCTAssertEqual(KeyNames.code(of: "Ctrl"), KeyNames.code(of: "LeftCtrl"))
        XCTAssertEqual(KeyNames.code(of: "Super"), KeyNames.code(of: "LEFTMETA"))
        XCTAssertNil(KeyNames.code(of: "BTN_LEFT"), "buttons are not keys")
        XCTAssertNil(KeyNames.code(of: "KEY_"))
        XCTAssertGreaterThan(KeyNames.byName.count, 500)
    }
}
