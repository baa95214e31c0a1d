import XCTest
@testable import PressureCore

/// Which effect kind a device gets: the fallback order walked over the `EV_FF` bits of real drivers.
final class HapticEffectSelectionTests: XCTestCase {
    typealias Bit = HapticEffectKind.Bit

    func support(_ bits: [UInt16]) -> HapticSupport { HapticSupport(bits: bits, effectSlots: 16) }

    func testTheFallbackOrderIsWalkedOverWhatTheDeviceReports() {
        let pad = support([Bit.haptic])  // a 6.18 HID haptic pressure pad
        let da7280 = support([Bit.periodic, Bit.custom, Bit.constant, Bit.gain])
        let memless = support([Bit.rumble])  // pwm-vibra, gpio-vibra, PMIC vibrators
        let everything = support([Bit.haptic, Bit.rumble, Bit.periodic, Bit.sine, Bit.custom])
        let waves = support([Bit.periodic, Bit.sine])
        XCTAssertEqual(HapticEffectKind.candidates(preferring: nil, on: pad), [.haptic])
        XCTAssertEqual(HapticEffectKind.candidates(preferring: nil, on: da7280), [.custom])
        XCTAssertEqual(HapticEffectKind.candidates(preferring: nil, on: memless), [.rumble])
        XCTAssertEqual(HapticEffectKind.candidates(preferring: nil, on: waves), [.periodic])
        XCTAssertEqual(HapticEffectKind.candidates(preferring: nil, on: everything), [.haptic, .custom, .rumble, .periodic])
        XCTAssertEqual(HapticEffectKind.candidates(preferring: .rumble, on: everything), [.rumble, .periodic],
                       "a preferred kind starts the order there")
        XCTAssertEqual(HapticEffectKind.candidates(preferring: .haptic, on: memless), [.rumble],
                       "a preferred kind the device lacks falls back")
        XCTAssertEqual(HapticEffectKind.candidates(preferring: .periodic, on: memless), [],
                       "nothing after periodic")
        XCTAssertEqual(HapticEffectKind.candidates(preferring: nil, on: support([Bit.gain])), [])
    }

    func testPeriodicNeedsItsWaveformBitAndSupportSaysWhatItHas() {
        XCTAssertFalse(support([Bit.periodic]).supports(.periodic), "FF_PERIODIC without FF_SINE plays no sine")
        XCTAssertFalse(support([Bit.custom]).supports(.custom), "FF_CUSTOM is a waveform of FF_PERIODIC")
        XCTAssertEqual(support([Bit.sine, Bit.rumble, Bit.periodic]).description, "rumble, periodic; 16 effects")
        XCTAssertEqual(HapticSupport(bits: [], effectSlots: 1).description, "no effect the daemon plays; 1 effect")
    }

    func testEffectsTurnStrengthIntoTheKernelsMagnitudeAndPickAWaveform() {
        XCTAssertEqual(HapticEffect(strength: 1, durationMilliseconds: 10).magnitude, 65535)
        XCTAssertEqual(HapticEffect(strength: 0, durationMilliseconds: 10).magnitude, 0)
        XCTAssertEqual(HapticEffect(strength: 2, durationMilliseconds: 10).magnitude, 65535, "clamped")
        XCTAssertEqual(HapticEffect(strength: 0.4, durationMilliseconds: 10).hidWaveform, HapticEffect.waveformClick)
        XCTAssertEqual(HapticEffect(strength: 0.8, durationMilliseconds: 10).hidWaveform, HapticEffect.waveformPress)
    }

    func testGesturesMapToEffectsAndDismissPlaysNone() {
        XCTAssertEqual(GestureKind.allCases.compactMap(HapticGesture.init), [.peek, .pop, .quickActions, .longPress])
        XCTAssertEqual(HapticGesture.allCases.map(\.index), [0, 1, 2, 3])
        XCTAssertEqual(HapticGesture.allCases.map(\.keyPrefix), ["Peek", "Pop", "QuickActions", "LongPress"])
        XCTAssertEqual(HapticGesture.allCases.filter(\.needsForce), [.peek, .pop, .quickActions])
    }

    func testDefaultsArePeekLightAndShortPopFirmerAndMotorsLonger() throws {
        let linear = HapticSettings()
        let motor = HapticSettings(actuator: .motor)
        for s in [linear, motor] {
            let peek = try XCTUnwrap(s.effect(.peek)), pop = try XCTUnwrap(s.effect(.pop))
            XCTAssertLessThan(peek.strength, pop.strength)
            XCTAssertLessThan(peek.durationMilliseconds, pop.durationMilliseconds)
        }
        XCTAssertTrue((10...15).contains(linear.effect(.peek)?.durationMilliseconds ?? 0))
        XCTAssertTrue((15...25).contains(linear.effect(.pop)?.durationMilliseconds ?? 0))
        for g in HapticGesture.allCases {
            XCTAssertGreaterThan(motor.effect(g)?.durationMilliseconds ?? 0, linear.effect(g)?.durationMilliseconds ?? 0)
        }
    }
}
