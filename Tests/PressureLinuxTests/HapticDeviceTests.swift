import Glibc
import XCTest
@testable import PressureCore
@testable import PressureLinux

final class HapticDeviceTests: XCTestCase {
    typealias Bit = HapticEffectKind.Bit

    func testADriverThatRefusesRumbleGetsTheFallbackAndSaysSo() throws {
        let port = ScriptedForceFeedback(bits: [Bit.rumble, Bit.periodic, Bit.sine])
        port.refuses = [.rumble]
        let d = try HapticDevice(port: port, settings: HapticSettings())
        XCTAssertEqual(d.effects.map { $0?.kind }, [.periodic, .periodic, .periodic, .periodic])
        XCTAssertEqual(d.choices[0], "peek: rumble refused (Invalid argument), periodic 0.40 12 ms")
        XCTAssertEqual(port.uploads.map(\.1.durationMilliseconds), [12, 20, 15, 15])
    }

    func testAHapticPadGetsItsWaveformsAndACustomOnlyChipItsCustomEffect() throws {
        let pad = ScriptedForceFeedback(bits: [Bit.haptic])
        XCTAssertEqual(try HapticDevice(port: pad, settings: HapticSettings()).effects.map { $0?.kind }, [.haptic, .haptic, .haptic, .haptic])
        XCTAssertEqual(pad.uploads.map(\.1.hidWaveform), [HapticEffect.waveformClick, HapticEffect.waveformPress, HapticEffect.waveformPress, HapticEffect.waveformPress])
        let da7280 = ScriptedForceFeedback(bits: [Bit.periodic, Bit.custom, Bit.sine])
        da7280.refuses = [.periodic]
        XCTAssertEqual(try HapticDevice(port: da7280, settings: HapticSettings()).effects.map { $0?.kind }, [.custom, .custom, .custom, .custom])
    }

    func testGesturesTurnedOffUploadNothingAndFullSlotsStopTheUploads() throws {
        var settings = HapticSettings()
        settings.effects[HapticGesture.quickActions.index] = nil
        let small = ScriptedForceFeedback(bits: [Bit.rumble], slots: 2)
        let d = try HapticDevice(port: small, settings: settings)
        XCTAssertEqual(d.effects.map { $0?.kind }, [.rumble, .rumble, nil, nil])
        XCTAssertEqual(d.choices[2], "quickActions: off")
        XCTAssertEqual(d.choices[3], "longPress: rumble refused (No space left on device), nothing it plays")
        XCTAssertTrue(try d.play(.pop))
        XCTAssertFalse(try d.play(.longPress))
        XCTAssertEqual(small.played, [1])
    }

    func testADeviceThatFailsIsDroppedAndTheOthersPlayOn() {
        let gone = ScriptedForceFeedback(node: "/dev/input/event8", bits: [Bit.rumble])
        let kept = ScriptedForceFeedback(node: "/dev/input/event9", bits: [Bit.rumble])
        let ports = [gone.node: gone, kept.node: kept]
        let devices = HapticDevices(settings: HapticSettings()) { (node: String) throws(SystemError) in
            guard let p = ports[node] else { throw SystemError(call: "open", subject: node, errno: ENOENT) }
            return p
        }
        devices.open(gone.node)
        devices.open(kept.node)
        devices.open("/dev/input/event1")
        XCTAssertEqual(devices.devices.keys.sorted(), [gone.node, kept.node])
        let play = HapticPlay(gesture: .peek, device: 1, contact: 1, time: Timestamp(microseconds: 0))
        devices.play([play])
        gone.failsWith = ENODEV
        devices.play([play, HapticPlay(gesture: .pop, device: 1, contact: 1, time: Timestamp(microseconds: 1))])
        XCTAssertEqual(devices.devices.keys.sorted(), [kept.node])
        XCTAssertTrue(gone.closed)
        XCTAssertEqual(kept.played, [0, 0, 1])
        XCTAssertEqual(gone.played, [0])
    }

    func testMatchNameAndHapticsOffDecideWhatIsOpened() throws {
        var settings = try Configuration.parse("[haptics]\nMatchName = *vibra*\n", file: "h").haptics
        let other = ScriptedForceFeedback(name: "Gamepad", bits: [Bit.rumble])
        let devices = HapticDevices(settings: settings) { (_: String) throws(SystemError) in other }
        devices.open(other.node)
        XCTAssertTrue(devices.devices.isEmpty)
        XCTAssertTrue(other.closed, "a device it does not use is closed at once")
        settings.mode = .off
        let off = HapticDevices(settings: settings) { (_: String) throws(SystemError) in ScriptedForceFeedback(bits: [Bit.rumble]) }
        off.open("/dev/input/event9")
        XCTAssertTrue(off.devices.isEmpty)
    }

    func testUdevSaysWhichNodesAreHaptic() {
        let ffRumble = "107030000 0"  // a vibrator: FF_RUMBLE, FF_PERIODIC, waveforms, FF_GAIN (word 1 is bits 64..127)
        XCTAssertEqual(HapticDeviceFilter.codes(inSysfsBitmap: "1 8000"), [15, 64])
        XCTAssertEqual(HapticDeviceFilter.codes(inSysfsBitmap: "0"), [])
        XCTAssertEqual(HapticDeviceFilter.codes(inSysfsBitmap: "zz"), [])
        XCTAssertTrue(HapticDeviceFilter.isHaptic(properties: [:], ffCapabilities: "10000 0"))
        XCTAssertFalse(HapticDeviceFilter.isHaptic(properties: [:], ffCapabilities: "0"))
        XCTAssertFalse(HapticDeviceFilter.isHaptic(properties: [:], ffCapabilities: nil))
        XCTAssertFalse(HapticDeviceFilter.isHaptic(properties: ["ID_INPUT_JOYSTICK": "1"], ffCapabilities: ffRumble))
        XCTAssertFalse(HapticDeviceFilter.isHaptic(properties: ["ID_INPUT_TOUCHSCREEN": "1"], ffCapabilities: "10000 0"),
                       "a touchscreen's rumble is not ours")
        XCTAssertTrue(HapticDeviceFilter.isHaptic(properties: ["ID_INPUT_TOUCHPAD": "1"], ffCapabilities: "8000 0"),
                      "FF_HAPTIC (0x4f) on a pressure pad")
        XCTAssertTrue(HapticDeviceFilter.isHaptic(properties: ["PRESSURED_HAPTIC": "1"], ffCapabilities: nil))
        XCTAssertFalse(HapticDeviceFilter.isHaptic(properties: ["PRESSURED_HAPTIC": "0"], ffCapabilities: ffRumble))
        XCTAssertEqual(KernelForceFeedback.codes([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x03]), [80, 81])
    }
}
