import XCTest

@testable import PressureProtocol

/// The exact bytes of event lines at the edges of every number format (signs, rounding carries, the
/// widest values), so the encoder, written for speed into a fixed buffer, is held to the same text as
/// the `String`-free but byte-at-a-time encoder it replaced (these expectations were checked against it).
final class WireFormatBytesTests: XCTestCase {
    private func event(_ kind: PressureEvent.Kind, time: Int64 = 12_000_175, device: Int = 0, contact: UInt64 = 3,
                       x: Int32 = 100, y: Int32 = -5, screenX: Double = 0, screenY: Double = 1,
                       force: Double = 1.33333, max: Double = 6.66666, progress: Double? = nil) -> PressureEvent {
        PressureEvent(kind: kind, time: Timestamp(microseconds: time), device: device, contact: contact, x: x, y: y,
                      screenX: screenX, screenY: screenY, force: force, maximumPossibleForce: max, progress: progress)
    }

    private func bytes(_ e: PressureEvent) -> String {
        var out: [UInt8] = Array("prefix;".utf8)
        WireFormat.append(e, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    func testATouchLineIsWrittenAfterWhatTheBufferHeld() {
        XCTAssertEqual(bytes(event(.touch(.moved))),
                       #"prefix;{"type":"touch","phase":"moved","time":12.000175,"device":0,"contact":3,"x":100,"y":-5,"# +
                       #""screenX":0.0,"screenY":1.0,"force":1.3333,"maximumPossibleForce":6.6667}"# + "\n")
    }

    func testEveryGestureAndPhaseName() {
        for g in GestureKind.allCases {
            XCTAssertTrue(WireFormat.line(event(.gesture(g), progress: 0.5)).hasPrefix(#"{"type":"\#(g.rawValue)","time":"#))
        }
        for p in [PressureEvent.TouchPhase.began, .moved, .ended, .cancelled] {
            XCTAssertTrue(WireFormat.line(event(.touch(p))).hasPrefix(#"{"type":"touch","phase":"\#(p.rawValue)","time":"#))
        }
    }

    func testDecimalsRoundToFourPlacesAndDropTrailingZeros() {
        let cases: [(Double, String)] = [
            (0, "0.0"), (-0.0, "0.0"), (-0.00004, "0.0"), (-0.00005, "-0.0001"), (1.99995, "2.0"), (0.5, "0.5"),
            (0.25, "0.25"), (0.125, "0.125"), (0.0625, "0.0625"), (10.01, "10.01"), (-3.5, "-3.5"),
            (1234567.89, "1234567.89"), (8.99e14, "899000000000000.0"), (9e14, "0.0"), (-9e14, "0.0"),
            (.nan, "0.0"), (.infinity, "0.0"), (-.infinity, "0.0"), (0.00005, "0.0001"), (0.00001, "0.0"),
        ]
        for (value, text) in cases {
            var out: [UInt8] = []
            WireFormat.appendDecimal(value, to: &out)
            XCTAssertEqual(String(decoding: out, as: UTF8.self), text, "\(value)")
            XCTAssertTrue(WireFormat.line(event(.gesture(.pop), force: value, progress: value))
                .contains(#""force":\#(text),"maximumPossibleForce":6.6667,"progress":\#(text)}"#), "\(value)")
        }
    }

    /// The rounding the decimals use gives `rounded()`'s result on every side of every half, in every
    /// binade the encoder writes (up to 9e18, its bound times 10^4).
    func testRoundingWithoutLibmIsRoundedToTheBit() {
        var values: [Double] = [0, 0.5, 1.5, 2.5, 0.49999999999999994, 0.5000000000000001, 4503599627370495.5,
                                4503599627370496, 9007199254740993, 9e18, 8.99e18, 1e-300, .leastNonzeroMagnitude]
        var binade = 0.25
        while binade < 9e18 {
            for v in [binade, binade + 0.5, binade - 0.5, binade * 1.5, binade * 1.5 + 0.5] where v >= 0 {
                values += [v, v.nextUp, v.nextDown]
            }
            binade *= 2
        }
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<10_000 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            values.append(Double(seed >> 11) / Double(1 << 53) * 20_000)  // forces and positions ×10^4
        }
        for v in values where v >= 0 && v < 9e18 {
            XCTAssertEqual(WireFormat.roundedMagnitude(v), UInt64(v.rounded()), "\(v)")
        }
    }

    func testTimesAndIntegersAtTheirExtremes() {
        let cases: [(Int64, String)] = [
            (0, "0.000000"), (-500_000, "-0.500000"), (1, "0.000001"), (999_999, "0.999999"),
            (Int64.max, "9223372036854.775807"), (Int64.min, "-9223372036854.775807"),
        ]
        for (us, text) in cases {
            XCTAssertTrue(WireFormat.line(event(.touch(.began), time: us)).contains(#""time":\#(text),"#), text)
            XCTAssertEqual(WireFormat.secondsString(Timestamp(microseconds: us)), text)
        }
        let wide = WireFormat.line(event(.touch(.cancelled), time: Int64.min, device: Int.min, contact: UInt64.max,
                                         x: Int32.min, y: Int32.max, screenX: -8.99e14, screenY: -8.99e14,
                                         force: -8.99e14, max: -8.99e14, progress: -8.99e14))
        XCTAssertEqual(wide, #"{"type":"touch","phase":"cancelled","time":-9223372036854.775807,"# +
                       #""device":-9223372036854775808,"contact":-1,"x":-2147483648,"y":2147483647,"# +
                       #""screenX":-899000000000000.0,"screenY":-899000000000000.0,"force":-899000000000000.0,"# +
                       #""maximumPossibleForce":-899000000000000.0,"progress":-899000000000000.0}"#)
    }

    /// Digits are written two at a time: every width, and each side of every power of ten.
    func testIntegersOfEveryWidth() {
        var value: Int64 = 1
        var expected: [Int64] = [0]
        for _ in 0..<18 {
            expected += [value - 1, value, value + 1, value * 9 + value - 1]
            value *= 10
        }
        expected += [Int64.max, Int64.min, -1, -10, -99, -100]
        for v in expected {
            var out: [UInt8] = []
            WireFormat.appendInteger(v, to: &out)
            XCTAssertEqual(String(decoding: out, as: UTF8.self), String(v))
        }
        for (us, text) in [(Int64(1_000_000), "1.000000"), (10_000_010, "10.000010"), (99_099_999, "99.099999"),
                           (100_000_000, "100.000000"), (123_456_789_012, "123456.789012")] {
            XCTAssertEqual(WireFormat.secondsString(Timestamp(microseconds: us)), text)
        }
    }
}
